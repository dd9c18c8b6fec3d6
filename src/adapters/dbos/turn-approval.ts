import { type ResumeDecision, settleDecisions } from '../../chain/resume-decision.js';
import { ApprovalError } from '../../core/errors/approval-error.js';
import type { PendingCall } from '../../core/pending-call.js';
import type { DbosMessages } from './dbos-workflows.js';

/** The event a waiting turn publishes its approval under (`getEvent(workflowId, TURN_APPROVAL_EVENT)`). */
export const TURN_APPROVAL_EVENT = 'toolwarden.approval';
/** The topic decisions are sent on. */
export const TURN_DECISIONS_TOPIC = 'toolwarden.decisions';

/**
 * Where a turn's approval stands, as the turn publishes it: `waiting` (its calls, the round of waiting in
 * the turn, when the wait ends, epoch milliseconds), `decided` (the round's decisions were taken: these),
 * `expired` (nobody decided in time: the calls were refused), `done` (the turn waits no more).
 */
export type TurnApproval =
  | {
      readonly state: 'waiting';
      readonly round: number;
      readonly pending: readonly PendingCall[];
      readonly expiresAt: number;
    }
  | {
      readonly state: 'decided';
      readonly round: number;
      /** The decisions the turn took (the first message of its round that kept the rules). */
      readonly decisions: Readonly<Record<string, ResumeDecision>>;
    }
  | { readonly state: 'expired'; readonly round: number }
  | { readonly state: 'done' };

/** A decision message: the round it decides and the decisions by call id. */
export interface TurnDecisions {
  readonly round: number;
  readonly decisions: Readonly<Record<string, ResumeDecision>>;
}

/** Where the turn's approval stands, or null when it never waited. */
export function readTurnApproval(messages: DbosMessages, workflowId: string): Promise<TurnApproval | null> {
  return messages.getEvent<TurnApproval>(workflowId, TURN_APPROVAL_EVENT, 0);
}

/**
 * Sends decisions to a turn that waits for them, from any process: the `DBOS` class, or a `DBOSClient`
 * without launching. The same rules as `runToolLoop({ from: { runId }, decisions })`, checked here first
 * and by the turn again: an approval names the pending call's `argumentsDigest` (`arguments-changed`
 * otherwise), each round is decided once (`already-resumed`), a decision after the wait ended is refused
 * (`expired`), and one for a call that does not wait is `not-pending`. The round's decision is sent under
 * one idempotency key, so a retried send arrives once.
 */
export async function decideTurn(
  messages: DbosMessages,
  workflowId: string,
  decisions: Readonly<Record<string, ResumeDecision>>,
): Promise<void> {
  const approval = await readTurnApproval(messages, workflowId);
  const refuse = (reason: ApprovalError['reason'], message: string) =>
    new ApprovalError({ reason, runId: workflowId, message });
  if (approval === null)
    throw refuse('not-pending', `turn ${JSON.stringify(workflowId)} never waited for a decision`);
  switch (approval.state) {
    case 'done':
      throw refuse('not-pending', `turn ${JSON.stringify(workflowId)} waits for no decision`);
    case 'decided':
      throw refuse('already-resumed', `round ${approval.round} of the turn was decided already`);
    case 'expired':
      throw refuse('expired', `the turn's wait for round ${approval.round} is over`);
    case 'waiting':
      if (Date.now() >= approval.expiresAt) {
        throw refuse('expired', `the turn's wait for round ${approval.round} is over`);
      }
      break;
    default: {
      const unknown: never = approval;
      throw refuse('not-pending', `the turn published an approval of no known state: ${String(unknown)}`);
    }
  }
  checkDecisions(approval, decisions, workflowId);
  const message: TurnDecisions = { round: approval.round, decisions };
  await messages.send(workflowId, message, TURN_DECISIONS_TOPIC, `${workflowId}:approval:${approval.round}`);
}

/** Checks decisions against the waiting calls (throws `ApprovalError` or `InvalidOptionsError`), as a stored run's resume does. */
export function checkDecisions(
  approval: Extract<TurnApproval, { state: 'waiting' }>,
  decisions: unknown,
  workflowId: string,
): void {
  if (typeof decisions !== 'object' || decisions === null || Array.isArray(decisions)) {
    throw new ApprovalError({
      reason: 'not-pending',
      runId: workflowId,
      message: 'decisions must be an object of call id to decision',
    });
  }
  settleDecisions(Object.entries(decisions), approval.pending, {
    option: 'decisions',
    strict: true,
    requireDigest: true,
    runId: workflowId,
  });
}
