import { argumentsDigest } from '../../chain/arguments-digest.js';
import { createToolRuntime } from '../../chain/runtime.js';
import { ApprovalError } from '../../core/errors/approval-error.js';
import type { LoopOutcome } from '../../core/loop-outcome.js';
import type { Message } from '../../core/message.js';
import type { Store } from '../../core/store.js';
import { approvalDemoShop as approvalShop, DEMO_ROUND } from '../../demo/approvals/approval-demo-shop.js';
import { recordEvents } from '../../testing/record-events.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { runToolLoop } from '../run-tool-loop.js';

// The approval tests' runs: a request that pauses at a refund, and a later resume of it by its run id.

export { approvalShop };
export const USER: readonly Message[] = [
  { role: 'user', content: 'Refund 250 on order A-1, then tell me its status.' },
];
export const ROUND = { role: 'assistant' as const, content: '', toolCalls: DEMO_ROUND };
export const DONE = { role: 'assistant' as const, content: 'Refunded; the order shows as refunded.' };
export const REFUND_ARGUMENTS = '{"orderId":"A-1","amount":250}';
export const DIGEST = argumentsDigest('refundOrder', REFUND_ARGUMENTS);
export const APPROVE = { r1: { approve: true as const, argumentsDigest: DIGEST } };

export function interrupted(outcome: LoopOutcome) {
  if (outcome.type !== 'interrupted') throw new Error(`expected interrupted, got ${outcome.type}`);
  return outcome;
}

/** The first request: the model asks for the refund and the read; the run pauses at the refund. */
export async function pause(store: Store, extra: { readonly approvalTtlMs?: number } = {}) {
  const shop = approvalShop();
  const outcome = interrupted(
    await runToolLoop({
      model: new ScriptedModel({ script: [ROUND] }),
      messages: USER,
      runtime: createToolRuntime({ tools: shop.tools, store }),
      ...extra,
    }),
  );
  return { outcome, shop };
}

/** A fresh paused run resumed by its id with `decision` for the refund (`r1`), its events recorded. */
export async function pauseAndDecide(
  store: Store,
  decision: unknown,
  extra: { readonly deniedText?: string } = {},
) {
  const { outcome } = await pause(store);
  const recorder = recordEvents();
  const shop = approvalShop();
  const done = await runToolLoop({
    from: { runId: outcome.runId },
    runtime: createToolRuntime({ tools: shop.tools, store, ...extra }),
    model: new ScriptedModel({ script: [DONE] }),
    decisions: { r1: decision as 'deny' },
    onEvent: recorder.listener,
  });
  return { done, recorder, shop };
}

/** A later request, maybe in another process: new tools, the store and the run id only. */
export function resume(
  store: Store,
  runId: string,
  decisions: object,
  model = new ScriptedModel({ script: [DONE] }),
) {
  const shop = approvalShop();
  const done = runToolLoop({
    from: { runId },
    runtime: createToolRuntime({ tools: shop.tools, store }),
    model,
    decisions: decisions as Record<string, never>,
  });
  return { done, shop, model };
}

export async function refusal(promise: Promise<unknown>): Promise<ApprovalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ApprovalError.isInstance(error)) throw new Error(`expected an ApprovalError, got ${String(error)}`);
  return error;
}
