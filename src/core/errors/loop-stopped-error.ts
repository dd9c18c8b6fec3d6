import type { LoopOutcome } from '../loop-outcome.js';
import { codeOfStopReason, type StopCode } from './error-codes.js';
import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.LoopStoppedError');

export interface LoopStoppedErrorOptions {
  outcome: Extract<LoopOutcome, { type: 'stopped' }>;
  /** The error's message: the loop passes `explainStop(outcome)`. */
  message: string;
}

/**
 * Thrown by the loop only under `throwOnStop: true`; the outcome it carries is what would have been returned.
 * Its `code` is the stop reason's code (`tool-call-limit` → `TOOL_CALL_LIMIT`); its message is what
 * the loop passes, `explainStop(outcome)`: which calls, which rounds, why, and what to change.
 */
export class LoopStoppedError extends ToolwardenError<StopCode> {
  override readonly name = 'LoopStoppedError';
  readonly outcome: Extract<LoopOutcome, { type: 'stopped' }>;
  readonly [MARKER] = true;

  constructor({ outcome, message }: LoopStoppedErrorOptions) {
    super({
      code: codeOfStopReason(outcome.reason),
      message,
      cause: outcome.evidence,
    });
    this.outcome = outcome;
  }

  static override isInstance(value: unknown): value is LoopStoppedError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
