import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ApprovalError');

/**
 * A resume was refused before anything ran: nothing of it was applied, nothing was executed, and the run
 * is as it was. Fail closed: a decision that cannot be matched to the call it approves runs nothing.
 */
export class ApprovalError extends ToolwardenError<'APPROVAL_REFUSED'> {
  override readonly name = 'ApprovalError';
  /**
   * Why a resume was refused: `unknown-run` (the store holds no run by that id), `expired` (its approval
   * window is over), `already-resumed` (another resume claimed it first, or it ran to its end already),
   * `not-pending` (a decision names a call the run does not wait for), `arguments-changed` (an approval's
   * `argumentsDigest` is not the digest of the call's arguments).
   */
  readonly reason: 'unknown-run' | 'expired' | 'already-resumed' | 'not-pending' | 'arguments-changed';
  readonly runId: string | undefined;
  readonly toolCallId: string | undefined;
  readonly [MARKER] = true;

  constructor({
    reason,
    message,
    runId,
    toolCallId,
  }: {
    reason: ApprovalError['reason'];
    message: string;
    /** The run the resume named, when it named one. */
    runId?: string | undefined;
    /** The call the refused decision is about, when it is about one. */
    toolCallId?: string | undefined;
  }) {
    super({ code: 'APPROVAL_REFUSED', message: `Resume refused (${reason}): ${message}` });
    this.reason = reason;
    this.runId = runId;
    this.toolCallId = toolCallId;
  }

  static override isInstance(value: unknown): value is ApprovalError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
