import { ResultSerializationError } from '../../core/errors/result-serialization-error.js';
import type { ToolCallResult } from '../../core/tool-execution-result.js';
import type { IdempotencyMode } from '../../tools/idempotency-options.js';

/**
 * What becomes of a claimed record once its call has an outcome (the table in docs/approvals-and-state.md, "Idempotent
 * writes"):
 * - `record`: the write took effect. A success, or a result the tool returned that was withheld (it broke
 *   its output contract, or cannot be serialized): a duplicate gets this answer and does not run.
 * - `release`: the write did not take effect, so it is not an outcome to keep: it never started (an abort
 *   first), or the tool refused it (`invalid-input`: a business rule, a `ToolInputError`, bad input it
 *   found; `denied`: a `PermissionDeniedError`, a 401 or 403). The claim is deleted, and the next
 *   identical call runs (the migrations have run since, the card was topped up).
 * - `unknown`: at most once, a call cut off after its tool started, by a failure that does not say what
 *   happened (a transient failure, a timeout, an abort while it ran, a defect): it may have acted, so it
 *   is not run again until someone settles it. At least once, the same failures release it instead.
 */
export type Settlement = 'record' | 'release' | 'unknown';

export function settlementOf(result: ToolCallResult, mode: IdempotencyMode): Settlement {
  if (result.type === 'success' || tookEffect(result)) return 'record';
  switch (result.errorClass) {
    case 'invalid-input':
    case 'denied':
      return 'release';
    case 'transient':
    case 'aborted':
      return result.attempts === 0 ? 'release' : cutOff(mode);
    case 'fatal':
      // A defect may strike after the tool acted, and a wrapper that failed may have run it (attempts 0).
      return cutOff(mode);
    default: {
      const unreachable: never = result.errorClass;
      throw new TypeError(`unknown error class ${String(unreachable)}`);
    }
  }
}

/** A failure after the tool returned: its value broke the output contract, or cannot be serialized. */
function tookEffect(result: ToolCallResult & { readonly type: 'error' }): boolean {
  return result.contractViolation === true || ResultSerializationError.isInstance(result.error);
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
