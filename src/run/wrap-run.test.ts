import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import { CallbackError } from '../core/errors/callback-error.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { needsApproval, refundShop } from './__fixtures__/refund-shop.js';
import { runToolLoop } from './run-tool-loop.js';
import { streamToolLoop } from './stream-tool-loop.js';
import type { RunWrapper, WrappedRun } from './wrap-run.js';

const USER: readonly Message[] = [{ role: 'user', content: 'Refund order A-1.' }];
const REFUND = assistantWithCalls([{ name: 'refundOrder', arguments: { orderId: 'A-1' }, id: 'r1' }]);
const DONE = { role: 'assistant' as const, content: 'Refunded.' };

function answering() {
  return { model: new ScriptedModel({ script: [DONE] }), tools: refundShop().tools, messages: USER };
}

describe('wrapRun', () => {
  it('wraps the whole run once: it sees the run, and the outcome is what next gave', async () => {
    const seen: Array<{ run: WrappedRun; outcome: LoopOutcome }> = [];
    const wrapRun: RunWrapper = async (run, next) => {
      const outcome = await next();
      seen.push({ run, outcome });
      return outcome;
    };
    const { tools, ...rest } = answering();
    const outcome = await runToolLoop({
      ...rest,
      runtime: createToolRuntime({ tools, store: new MemoryStore() }),
      sessionId: 's1',
      turnId: 't1',
      wrapRun,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.outcome).toBe(outcome);
    expect(seen[0]?.run).toEqual({ runId: outcome.runId, sessionId: 's1', turnId: 't1', resumed: false });
  });

  it('wraps a streamed run and a resumed one (resumed: true)', async () => {
    const runs: WrappedRun[] = [];
    const wrapRun: RunWrapper = (run, next) => {
      runs.push(run);
      return next();
    };
    for await (const _event of streamToolLoop({ ...answering(), wrapRun })) {
      // drained
    }
    const { tools } = refundShop();
    const paused = await runToolLoop({
      model: new ScriptedModel({ script: [REFUND] }),
      messages: USER,
      runtime: createToolRuntime({ tools, decide: needsApproval }),
      wrapRun,
    });
    expect(paused.type).toBe('interrupted');
    const done = await runToolLoop({
      from: JSON.stringify(paused.state),
      model: new ScriptedModel({ script: [DONE] }),
      runtime: createToolRuntime({ tools, decide: needsApproval }),
      decisions: { r1: 'run' },
      wrapRun,
    });
    expect(done.type).toBe('completed');
    expect(runs.map((run) => run.resumed)).toEqual([false, false, true]);
    expect(runs[2]?.runId).toBe(paused.runId);
  });

  it('a wrapper that throws after next fails the run with CallbackError carrying the outcome', async () => {
    const boom = new Error('tracer broke');
    const rejected = await runToolLoop({
      ...answering(),
      wrapRun: async (_run, next) => {
        await next();
        throw boom;
      },
    }).catch((error: unknown) => error);
    expect(CallbackError.isInstance(rejected)).toBe(true);
    expect(rejected).toMatchObject({ callback: 'wrapRun', cause: boom, outcome: { type: 'completed' } });
  });

  it('a wrapper that never calls next fails the run with CallbackError, and the run did not happen', async () => {
    const model = new ScriptedModel({ script: [DONE] });
    const rejected = await runToolLoop({
      ...answering(),
      model,
      wrapRun: async () => ({}) as LoopOutcome,
    }).catch((error: unknown) => error);
    expect(rejected).toMatchObject({ callback: 'wrapRun', outcome: undefined });
    expect(model.requests).toHaveLength(0);
  });

  it('a run that rejects rejects the same way through the wrapper', async () => {
    const seen: unknown[] = [];
    const rejected = await runToolLoop({
      ...answering(),
      handoff: () => {
        throw new Error('queue down');
      },
      model: new ScriptedModel({ script: [REFUND, REFUND, REFUND] }),
      maxRoundTrips: 1,
      wrapRun: (_run, next) =>
        next().catch((error: unknown) => {
          seen.push(error);
          throw error;
        }),
    }).catch((error: unknown) => error);
    expect(seen).toEqual([rejected]);
    expect(rejected).toMatchObject({ callback: 'handoff' });
  });

  it('must be a function', async () => {
    await expect(runToolLoop({ ...answering(), wrapRun: 'span' as unknown as RunWrapper })).rejects.toThrow(
      InvalidOptionsError,
    );
  });
});
