import type { IdempotencyMode } from '../../tools/idempotency-options.js';
import type { ToolCallResult } from '../tool-execution-result.js';

/**
 * What becomes of a claimed record once its call has an outcome:
 * - `record`: the tool finished and said how: a success, or a failure it reports as final (invalid input,
 *   a denial, a defect, a result withheld for breaking its contract). The write may have happened and
 *   the same call would get the same answer, so duplicates get this one (as Stripe keeps the response of
 *   a request that started executing, errors included).
 * - `release`: nothing says the tool acted: it never started (an abort first), or, at least once, it failed
 *   in a way that says "try again" (a transient failure, a timeout, an abort while it ran). The claim is
 *   deleted, so a later call runs.
 * - `unknown`: at most once, the same failures that do not say what happened: the call may have acted, so
 *   it is not run again until someone resolves it.
 */
export type Settlement = 'record' | 'release' | 'unknown';

export function settlementOf(result: ToolCallResult, mode: IdempotencyMode): Settlement {
  if (result.type === 'success') return 'record';
  switch (result.errorClass) {
    case 'invalid-input':
    case 'denied':
    case 'fatal':
      return 'record';
    case 'transient':
    case 'aborted':
      return result.attempts === 0 ? 'release' : cutOff(mode);
    default: {
      const unreachable: never = result.errorClass;
      throw new TypeError(`unknown error class ${String(unreachable)}`);
    }
  }
}

/** A call cut off while it may have been running: free again at least once, unknown at most once. */
export function cutOff(mode: IdempotencyMode): Settlement {
  switch (mode) {
    case 'at-least-once':
      return 'release';
    case 'at-most-once':
      return 'unknown';
    default: {
      const unreachable: never = mode;
      throw new TypeError(`unknown idempotency mode ${String(unreachable)}`);
    }
  }
}
