// A refund waits for a person: the run pauses, is kept in the store under its id, and a later request (in
// any process that shares the store) resumes it with the person's decision.
import {
  createToolRuntime,
  defineTool,
  type LoopOutcome,
  MemoryStore,
  type PendingCall,
  runToolLoop,
} from '../src/index.js';
import { assistantWithCalls, ScriptedModel } from '../src/testing/index.js';

export const refunds: string[] = [];

/** One process here; across processes or restarts, `createSqliteStore` (toolwarden/sqlite) or `createRedisStore`. */
const store = new MemoryStore();

export const runtime = createToolRuntime({
  store,
  tools: [
    defineTool({
      name: 'refundOrder',
      description: 'Refunds an order.',
      input: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
      effect: 'write',
      needsApproval: true,
      execute: async ({ orderId }: { orderId: string }) => {
        refunds.push(orderId);
        return { orderId, refunded: true };
      },
    }),
  ],
  // Who may ask for a refund at all comes from the caller's data, never from the model.
  decide: (_call, { data }) =>
    (data as { role?: string }).role === 'support'
      ? { type: 'run' }
      : { type: 'deny', reason: 'refunds are for support staff' },
});

const caller = { role: 'support' };

/** The request: the model asks for a refund; the run pauses before it runs. What a person is shown. */
export async function ask(): Promise<{ runId: string; pending: readonly PendingCall[] }> {
  const model = new ScriptedModel({
    script: [assistantWithCalls([{ name: 'refundOrder', arguments: { orderId: 'A-1' }, id: 'call_1' }])],
  });
  const outcome: LoopOutcome = await runToolLoop({
    model,
    runtime,
    data: caller,
    messages: [{ role: 'user', content: 'Refund order A-1.' }],
  });
  if (outcome.type !== 'interrupted') throw new Error(`expected a pause, got ${outcome.type}`);
  // outcome.pending: [{ toolCallId: 'call_1', toolName: 'refundOrder', argumentsSummary, argumentsDigest, reason: 'needs approval' }]
  return { runId: outcome.runId, pending: outcome.pending };
}

/** Later: a person approved (or not) the call they were shown; the run continues from the store. */
export async function decide(runId: string, call: PendingCall, approved: boolean): Promise<LoopOutcome> {
  const model = new ScriptedModel({
    script: [{ role: 'assistant', content: approved ? 'Refunded.' : 'Not refunded.' }],
  });
  return runToolLoop({
    from: { runId },
    runtime,
    model,
    data: caller,
    decisions: {
      [call.toolCallId]: approved
        ? { approve: true, argumentsDigest: call.argumentsDigest }
        : { approve: false, message: 'A person declined this refund.' },
    },
  });
}
