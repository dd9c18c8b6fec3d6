import type { ResumeDecision } from '../../chain/resume-decision.js';
import type { PendingCall } from '../../core/pending-call.js';
import type { DbosWorkflows } from './dbos-workflows.js';
import {
  checkDecisions,
  TURN_APPROVAL_EVENT,
  TURN_DECISIONS_TOPIC,
  type TurnApproval,
  type TurnDecisions,
} from './turn-approval.js';

/** What the model reads for a call nobody decided on before the wait ended. */
const EXPIRED_TEXT = 'Nobody approved this call before the approval window closed, so it was not run.';

/**
 * Inside the turn's workflow: publishes the waiting calls (`TurnApproval`), then waits durably (`recv`,
 * until a deadline fixed once in a step, so a recovered turn waits for what was left) for a decision of
 * this round. A message that breaks the rules (another round, a changed digest, a call that does not wait)
 * is refused and published as `refused` events, and the wait goes on; when it ends with no decision, every
 * waiting call is refused (`approve: false`), as a stored run's expired approval is.
 */
export async function awaitDecisions(
  dbos: DbosWorkflows,
  workflowId: string,
  round: number,
  pending: readonly PendingCall[],
  waitMs: number,
): Promise<Readonly<Record<string, ResumeDecision>>> {
  const expiresAt = await dbos.runStep(async () => Date.now() + waitMs, { name: 'approval-deadline' });
  const waiting: TurnApproval = { state: 'waiting', round, pending, expiresAt };
  await dbos.setEvent(TURN_APPROVAL_EVENT, waiting);
  for (let refused = 0; ; refused++) {
    const message = await dbos.recv<TurnDecisions>(TURN_DECISIONS_TOPIC, { deadlineEpochMS: expiresAt });
    if (message === null) {
      await dbos.setEvent(TURN_APPROVAL_EVENT, { state: 'expired', round } satisfies TurnApproval);
      return Object.fromEntries(
        pending.map((call) => [call.toolCallId, { approve: false, message: EXPIRED_TEXT } as const]),
      );
    }
    const problem = refusal(message, waiting, workflowId);
    if (problem === undefined) {
      const decided: TurnApproval = { state: 'decided', round, decisions: message.decisions };
      await dbos.setEvent(TURN_APPROVAL_EVENT, decided);
      // Kept under the round too: the turn going on does not erase which decisions it took.
      await dbos.setEvent(`${TURN_APPROVAL_EVENT}.${round}`, decided);
      return message.decisions;
    }
    await dbos.setEvent(`${TURN_APPROVAL_EVENT}.refused`, { round, refused: refused + 1, problem });
  }
}

/** Why a message is not this round's decision, or undefined when it is. */
function refusal(message: unknown, waiting: Extract<TurnApproval, { state: 'waiting' }>, workflowId: string) {
  const { round, decisions } = (message ?? {}) as Partial<TurnDecisions>;
  if (round !== waiting.round) return `a decision for round ${String(round)}, not ${waiting.round}`;
  try {
    checkDecisions(waiting, decisions, workflowId);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : 'decisions of the wrong shape';
  }
}
