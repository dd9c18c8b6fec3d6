import { describe, expect, it } from 'vitest';
import { CallbackError } from '../core/errors/callback-error.js';
import { StoreError } from '../core/errors/store-error.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { storeWith } from '../testing/store-with.js';
import { chargeTool } from './idempotency/__fixtures__/charge-tool.js';
import { createDrivenRuntime } from './runtime.js';
import type { CallReport, WrapCallStep } from './wrap-call-step.js';

const call = { id: 'c1', name: 'charge', arguments: { order: 'A-1' } };

/** A step that runs each call once and afterwards answers it from what it kept, as a checkpoint does. */
function checkpointing(): { step: WrapCallStep; kept: Map<string, CallReport>; ran: string[] } {
  const kept = new Map<string, CallReport>();
  const ran: string[] = [];
  const step: WrapCallStep = async (info, next) => {
    const found = kept.get(info.toolCallId);
    if (found !== undefined) return found;
    ran.push(info.toolName);
    const report = await next();
    kept.set(info.toolCallId, report);
    return report;
  };
  return { step, kept, ran };
}

describe('wrapCallStep: a driver around a call’s record and execution together', () => {
  it('holds the idempotency record and the execution: a replay answers from the step, the store untouched', async () => {
    const { tool, ledger } = chargeTool();
    const calls: string[] = [];
    const memory = new MemoryStore();
    const store = storeWith(
      {
        get: (key) => {
          calls.push('get');
          return memory.get(key);
        },
        set: (key, value, options) => {
          calls.push('set');
          return memory.set(key, value, options);
        },
      },
      memory,
    );
    const { step, ran } = checkpointing();
    const runtime = createDrivenRuntime({ tools: [tool], store }, { wrapCallStep: step });
    const first = await runtime.executeToolCall(call, { sessionId: 's' });
    expect(first).toMatchObject({ type: 'answered', isError: false });
    expect(calls.length).toBeGreaterThan(0);
    calls.length = 0;
    const replay = await runtime.executeToolCall(call, { sessionId: 's' });
    expect(replay).toEqual(first);
    expect({ ran, charges: ledger.charges.length, storeCalls: calls }).toEqual({
      ran: ['charge'],
      charges: 1,
      storeCalls: [],
    });
  });

  it('replays what the chain recorded beside the result: a store failure stops the run again', async () => {
    const { tool, ledger } = chargeTool();
    const down = storeWith({
      set: () => Promise.reject(new StoreError({ reason: 'unavailable', operation: 'set', message: 'down' })),
    });
    const { step, kept } = checkpointing();
    const model = () =>
      new ScriptedModel({
        script: [assistantWithCalls([call]), { role: 'assistant', content: 'never asked' }],
      });
    const options = { messages: [{ role: 'user' as const, content: 'charge' }], sessionId: 's', turnId: 't' };
    const first = await runToolLoop({
      ...options,
      model: model(),
      runtime: createDrivenRuntime({ tools: [tool], store: down }, { wrapCallStep: step }),
    });
    expect(first).toMatchObject({ type: 'stopped', reason: 'STORE_UNAVAILABLE' });
    expect(kept.get('c1')?.storeFailure?.toolName).toBe('charge');
    // The store is back, but the step answers from its checkpoint: the same stop, nothing run.
    const replay = await runToolLoop({
      ...options,
      model: model(),
      runtime: createDrivenRuntime({ tools: [tool], store: new MemoryStore() }, { wrapCallStep: step }),
    });
    expect(replay).toMatchObject({ type: 'stopped', reason: 'STORE_UNAVAILABLE' });
    expect(ledger.charges).toHaveLength(0);
  });

  it.each([
    ['throws', () => Promise.reject(new Error('step lost'))],
    ['answers with something else', () => Promise.resolve({ result: { toolCallId: 'other' } } as never)],
  ])('a step that %s fails the call as a callback failure, the tool not run', async (_what, answer) => {
    const { tool, ledger } = chargeTool();
    const runtime = createDrivenRuntime({ tools: [tool] }, { wrapCallStep: answer });
    const error = await runtime.executeToolCall(call, { sessionId: 's' }).catch((thrown: unknown) => thrown);
    expect(CallbackError.isInstance(error) && error.callback).toBe('wrapCallStep');
    expect(ledger.charges).toHaveLength(0);
  });

  it('is no user option: createToolRuntime refuses it', async () => {
    const { createToolRuntime } = await import('./runtime.js');
    const { tool } = chargeTool();
    expect(() => createToolRuntime({ tools: [tool], wrapCallStep: () => undefined } as never)).toThrow(
      /wrapCallStep/,
    );
  });
});
