import { toJsonPointer } from '../core/validation-issue.js';
/** Where two values first differ: a JSON Pointer (`` for the root) and the two values found there. */
export interface Difference {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/**
 * Deep equality for tool results, reporting the first difference. Plain data compares by structure:
 * arrays by position, objects by own enumerable keys (a key holding `undefined` counts as absent, as
 * in JSON), `Date` by time, `Map` and `Set` in insertion order, numbers with `Object.is` except that
 * `0` equals `-0`. Anything else (functions, symbols, class instances) compares by its own keys, or by
 * identity when it has none. Cycles are safe. Returns undefined when the values are equal.
 */
export function firstDifference(actual: unknown, expected: unknown): Difference | undefined {
  return compare(actual, expected, '', new Map());
}

function compare(
  actual: unknown,
  expected: unknown,
  path: string,
  seen: Map<object, Set<object>>,
): Difference | undefined {
  const differ = (): Difference => ({ path, expected, actual });
  if (actual === expected || (Number.isNaN(actual) && Number.isNaN(expected))) return undefined;
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) {
    return differ();
  }
  // Comparing the same pair again (a cycle) adds nothing: assume equal there.
  const pairs = seen.get(actual) ?? new Set<object>();
  if (pairs.has(expected)) return undefined;
  pairs.add(expected);
  seen.set(actual, pairs);

  if (Array.isArray(actual) !== Array.isArray(expected)) return differ();
  if (actual instanceof Date || expected instanceof Date) {
    return actual instanceof Date &&
      expected instanceof Date &&
      Object.is(actual.getTime(), expected.getTime())
      ? undefined
      : differ();
  }
  if (actual instanceof Map || expected instanceof Map) {
    if (!(actual instanceof Map && expected instanceof Map) || actual.size !== expected.size) return differ();
    return compareLists([...actual.entries()], [...expected.entries()], path, seen);
  }
  if (actual instanceof Set || expected instanceof Set) {
    if (!(actual instanceof Set && expected instanceof Set) || actual.size !== expected.size) return differ();
    return compareLists([...actual], [...expected], path, seen);
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) return differ();
    return compareLists(actual, expected, path, seen);
  }
  const actualRecord = actual as Record<string, unknown>;
  const expectedRecord = expected as Record<string, unknown>;
  const keys = new Set([...definedKeys(actualRecord), ...definedKeys(expectedRecord)]);
  for (const key of [...keys].sort()) {
    const found = compare(actualRecord[key], expectedRecord[key], `${path}${toJsonPointer([key])}`, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

function compareLists(
  actual: readonly unknown[],
  expected: readonly unknown[],
  path: string,
  seen: Map<object, Set<object>>,
): Difference | undefined {
  for (let i = 0; i < expected.length; i++) {
    const found = compare(actual[i], expected[i], `${path}/${i}`, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

function definedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => record[key] !== undefined);
}
