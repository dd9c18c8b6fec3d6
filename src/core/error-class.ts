/**
 * How a failure is treated.
 * - `invalid-input`: the model can fix it (bad arguments, a business rule): it sees a short message.
 * - `transient`: retried with backoff, then reported as temporarily unavailable.
 * - `denied`: the model learns only that the action is not permitted; an audit event is emitted.
 * - `fatal`: a defect: the execution throws, keeping the cause and the partial results.
 * - `aborted`: the caller's signal aborted before the call finished: never retried, never the model's fault.
 */
export type ErrorClass = 'invalid-input' | 'transient' | 'denied' | 'fatal' | 'aborted';

/** Every error class, for a reader that checks a class it did not make (an audit log). */
export const ALL_ERROR_CLASSES: readonly ErrorClass[] = [
  'invalid-input',
  'transient',
  'denied',
  'fatal',
  'aborted',
];
