import fc from 'fast-check';

/**
 * `fc.record` that never makes null-prototype objects: the cases are plain data, printed in repros, and
 * the hostility lives in what they describe, not in their own shape.
 */
export const record: typeof fc.record = ((model: never, constraints?: object) =>
  fc.record(model, { ...constraints, noNullPrototype: true } as never)) as typeof fc.record;
