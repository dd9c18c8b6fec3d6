import type { LoopOutcome } from '../loop-outcome.js';
import type { StopReason } from './error-codes.js';
import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.LoopStoppedError');

/**
 * Thrown by the loop only under `throwOnStop: true`; the outcome it carries is what would have been returned.
 * Its `code` is the stop reason (`outcome.reason`, a code of the table); its message is what
 * the loop passes, `explainStop(outcome)`: which calls, which rounds, why, and what to change.
 */
export class LoopStoppedError extends ToolwardenError<StopReason> {
  override readonly name = 'LoopStoppedError';
  readonly outcome: Extract<LoopOutcome, { type: 'stopped' }>;
  readonly [MARKER] = true;

  constructor({
    outcome,
    message,
  }: {
    outcome: Extract<LoopOutcome, { type: 'stopped' }>;
    /** The error's message: the loop passes `explainStop(outcome)`. */
    message: string;
  }) {
    super({
      code: outcome.reason,
      message,
      cause: outcome.evidence,
    });
    this.outcome = outcome;
  }

  static override isInstance(value: unknown): value is LoopStoppedError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
