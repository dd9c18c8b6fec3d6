import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.IdempotencyError');

/**
 * Why an idempotent write was not run: `conflict` (its key was used before with other arguments),
 * `in-progress` (an identical call is still running), `unknown-outcome` (an identical call was cut off or
 * its process died before its outcome was recorded, under `at-most-once`, the default).
 */
export type IdempotencyProblem = 'conflict' | 'in-progress' | 'unknown-outcome';

/** The code of each problem: what the model reads at the start of the tool message. */
export type IdempotencyCode = 'IDEMPOTENCY_CONFLICT' | 'ALREADY_IN_PROGRESS' | 'OUTCOME_UNKNOWN';

const CODES: Readonly<Record<IdempotencyProblem, IdempotencyCode>> = {
  conflict: 'IDEMPOTENCY_CONFLICT',
  'in-progress': 'ALREADY_IN_PROGRESS',
  'unknown-outcome': 'OUTCOME_UNKNOWN',
};

const WHAT: Readonly<Record<IdempotencyProblem, string>> = {
  conflict: 'its key was used before with other arguments',
  'in-progress': 'an identical call is still running',
  'unknown-outcome':
    'an identical call was cut off after it started and may or may not have taken effect (check whether it did; if it did not, forgetIdempotencyRecord lets the call run)',
};

/** The error of a write the chain did not run because of its idempotency record (in the call's result). */
export class IdempotencyError extends ToolwardenError<IdempotencyCode> {
  override readonly name = 'IdempotencyError';
  readonly reason: IdempotencyProblem;
  readonly toolName: string;
  /** The call that was not run. */
  readonly toolCallId: string;
  /** The call that claimed the record (the one that ran, or is running, or was cut off). */
  readonly claimedBy: string;
  readonly [MARKER] = true;

  constructor({
    reason,
    toolName,
    toolCallId,
    claimedBy,
  }: {
    reason: IdempotencyProblem;
    /** The write tool. */
    toolName: string;
    /** The call that was not run. */
    toolCallId: string;
    /** The call that claimed the record. */
    claimedBy: string;
  }) {
    super({
      code: CODES[reason],
      message: `Tool "${toolName}" (call ${toolCallId}) was not run: ${WHAT[reason]}; claimed by call ${claimedBy}`,
    });
    this.reason = reason;
    this.toolName = toolName;
    this.toolCallId = toolCallId;
    this.claimedBy = claimedBy;
  }

  static override isInstance(value: unknown): value is IdempotencyError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
