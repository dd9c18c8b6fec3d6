/**
 * A call that did not run because it waits for a decision (`needsApproval`, or a `decide` hook
 * that asked): what a person needs to decide on it, and what binds the decision to it.
 */
export interface PendingCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The raw argument text the model sent. */
  readonly arguments: string;
  /** The arguments for a person to read: redacted (secrets, personal data) and cut. */
  readonly argumentsSummary: string;
  /** SHA-256 of the tool name and the canonical arguments: an approval names it (`{ approve: true, argumentsDigest }`). */
  readonly argumentsDigest: string;
  /** Why it waits: `needs approval`, or the hook's reason. */
  readonly reason?: string;
  /** The hook's payload, as it gave it. */
  readonly payload?: unknown;
}
