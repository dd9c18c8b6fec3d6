// Pause before a write, save the run, resume it later (in any process) with a person's decision.
import {
  type BeforeToolCall,
  createToolRuntime,
  defineTool,
  type LoopOutcome,
  resumeToolLoop,
  runToolLoop,
} from '../src/index.js';
import { assistantWithCalls, ScriptedModel } from '../src/testing/index.js';

export const refunds: string[] = [];

/** The trivial approval policy: every refund waits for a person; everything else runs. */
const needsApproval: BeforeToolCall = ({ toolName }) =>
  toolName === 'refundOrder' ? { type: 'interrupt', reason: 'refunds need a person' } : undefined;

export const runtime = createToolRuntime({
  tools: [
    defineTool({
      name: 'refundOrder',
      description: 'Refunds an order.',
      input: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
      effect: 'write',
      execute: async ({ orderId }: { orderId: string }) => {
        refunds.push(orderId);
        return { orderId, refunded: true };
      },
    }),
  ],
  beforeToolCall: needsApproval,
});

/** The request: the model asks for a refund; the run pauses before it runs. Returns the JSON to keep. */
export async function ask(): Promise<string> {
  const model = new ScriptedModel({
    script: [assistantWithCalls([{ name: 'refundOrder', arguments: { orderId: 'A-1' }, id: 'call_1' }])],
  });
  const outcome: LoopOutcome = await runToolLoop({
    model,
    runtime,
    messages: [{ role: 'user', content: 'Refund order A-1.' }],
  });
  if (outcome.type !== 'interrupted') throw new Error(`expected a pause, got ${outcome.type}`);
  // outcome.pending: [{ toolCallId: 'call_1', toolName: 'refundOrder', arguments: '{"orderId":"A-1"}', reason }]
  return JSON.stringify(outcome.state);
}

/** Later: a person approved (or not); the run continues from the saved JSON. */
export async function decide(saved: string, approved: boolean): Promise<LoopOutcome> {
  const model = new ScriptedModel({
    script: [{ role: 'assistant', content: approved ? 'Refunded.' : 'Not refunded.' }],
  });
  return resumeToolLoop(saved, { model, runtime, decisions: { call_1: approved ? 'run' : 'deny' } });
}
