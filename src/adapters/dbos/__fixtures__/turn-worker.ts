// A durable test's process: `turn-worker.ts <action> <setup JSON> [<session>]`.
//   die-at-model-1: runs the turn and dies when the model is asked for its second round (the first
//                   round's calls checkpointed);
//   new-deploy:     registers one more workflow (new code: DBOS computes another application version),
//                   launches, and prints the turn's status and both versions, without waiting for it;
//   recover:        launches (DBOS recovers the turn when its version is this one's) and prints its outcome;
//   conflict:       runs a turn, runs it again, then runs its id with other messages: prints each answer;
//   wait:           runs a turn whose charge needs approval, and dies once the turn waits for it;
//   approve:        no launch: a DBOSClient reads the waiting calls, sends an approval with a wrong digest,
//                   then the right one; prints what each got;
//   decide-late:    no launch: a DBOSClient decides once more; prints the refusal;
//   expire:         runs a turn whose charge needs approval and nobody decides: prints the outcome.
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import { argumentsDigest } from '../../../chain/arguments-digest.js';
import { decideTurn, readTurnApproval } from '../turn-approval.js';
import { report, setUpWorker, summary } from './dbos-worker.js';

const [action = '', setupJson = '{}', sessionId = 's-1'] = process.argv.slice(2);
const setup = JSON.parse(setupJson);
const turn = { sessionId, turnId: 'turn-1' };
const messages = [{ role: 'user' as const, content: sessionId }];
const workflowId = `${sessionId}:turn-1`;
const caught = async (act: () => Promise<unknown>) => {
  try {
    return { ok: (await act()) ?? 'done' };
  } catch (error) {
    const { name, code, reason } = error as { name?: string; code?: string; reason?: string };
    return { error: { name, code, reason } };
  }
};

if (action === 'approve' || action === 'decide-late') {
  const client = await DBOSClient.create({ systemDatabaseUrl: setup.url });
  const approval = await client.getEvent<{
    state: string;
    pending?: { toolCallId: string; toolName: string; arguments: string }[];
  }>(workflowId, 'toolwarden.approval', 0);
  const call = approval?.pending?.[0];
  const digest = call === undefined ? 'none' : argumentsDigest(call.toolName, call.arguments);
  const approve = (argumentsDigest: string) =>
    caught(() =>
      decideTurn(client, workflowId, { 'call-charge': { approve: true, argumentsDigest, by: 'alice' } }),
    );
  if (action === 'approve') {
    report({ approval, wrongDigest: await approve('0'.repeat(64)), approved: await approve(digest) });
  } else {
    const round1 = await client.getEvent(workflowId, 'toolwarden.approval.1', 0);
    report({ approval: await readTurnApproval(client, workflowId), round1, late: await approve(digest) });
  }
  await client.destroy();
  process.exit(0);
}

if (action === 'new-deploy') DBOS.registerWorkflow(async () => 'new code', { name: 'another-workflow' });
const { turns, store } = await setUpWorker({
  ...setup,
  ...(action === 'die-at-model-1'
    ? { onModel: (round: number) => (round === 1 ? process.exit(1) : undefined) }
    : {}),
});
await DBOS.launch();
switch (action) {
  case 'die-at-model-1':
    await turns.run({ ...turn, messages });
    break;
  case 'new-deploy': {
    const status = await DBOS.getWorkflowStatus(workflowId);
    report({ status: status?.status, version: status?.applicationVersion, current: DBOS.applicationVersion });
    break;
  }
  case 'recover': {
    const outcome = await DBOS.retrieveWorkflow<Parameters<typeof summary>[0]>(workflowId).getResult();
    report({ outcome: summary(outcome) });
    break;
  }
  case 'conflict': {
    const first = await caught(async () => summary(await turns.run({ ...turn, messages })));
    const again = await caught(async () => summary(await turns.run({ ...turn, messages })));
    const other = await caught(async () =>
      summary(await turns.run({ ...turn, messages: [{ role: 'user', content: 'refund A-1 instead' }] })),
    );
    report({ first, again, other });
    break;
  }
  case 'wait': {
    void turns.run({ ...turn, messages });
    for (;;) {
      const approval = await turns.approval(turn);
      if (approval?.state === 'waiting') {
        report({ approval });
        process.exit(1);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  case 'expire': {
    const outcome = await turns.run({ ...turn, messages });
    report({ outcome: summary(outcome), approval: await turns.approval(turn) });
    const late = await caught(() => turns.decide(turn, { 'call-charge': { approve: false } }));
    report({ late });
    break;
  }
  default:
    throw new Error(`unknown action ${action}`);
}
await DBOS.shutdown();
await store.close();
process.exit(0);
