import { afterEach, describe, expect, it, vi } from 'vitest';
import { contractMismatchScenario } from '../../test/scenarios/repeat-scenarios.js';
import { createToolRuntime, type ToolRuntimeOptions } from '../chain/runtime.js';
import { CallbackError } from '../core/errors/callback-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { historyProblems } from '../testing/history-problems.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { storeWith } from '../testing/store-with.js';
import type { RunOptions } from './loop-options.js';
import { runToolLoop } from './run-tool-loop.js';
import { guardKey } from './session-guard.js';
import { stopIf } from './stop-conditions.js';

// Every callback the caller passes may fail. The run then rejects with CallbackError, which carries the
// outcome so far (history, steps, usage), and the session's guard state is still saved.

afterEach(() => {
  vi.useRealTimers();
});

async function failure(options: RunOptions): Promise<CallbackError> {
  try {
    await runToolLoop(options);
  } catch (error) {
    if (error instanceof CallbackError) return error;
    throw error;
  }
  throw new Error('the run did not fail');
}

function outcomeOf(error: CallbackError): LoopOutcome {
  if (error.outcome === undefined) throw new Error('no outcome');
  return error.outcome;
}

const boom = () => {
  throw new Error('queue down');
};

describe('a callback that fails', () => {
  it.each([
    ['handoff', { handoff: boom }, 'handoff'],
    ['an async handoff', { handoff: async () => Promise.reject(new Error('queue down')) }, 'handoff'],
    ['a handoff that returns a number', { handoff: () => 5 as unknown as string }, 'handoff'],
    ['fallback', { fallback: boom }, 'fallback'],
    ['cost', { cost: boom, costBudget: 10 }, 'cost'],
    ['a stop condition', { stopWhen: [stopIf('boom', boom)] }, 'stopIf(boom)'],
    ['wrapModelCall', { wrapModelCall: boom }, 'wrapModelCall'],
  ])('%s: CallbackError with the outcome so far, the guard saved', async (_name, extra, callback) => {
    const { model, tools, messages } = contractMismatchScenario.build();
    const store = new MemoryStore();
    const error = await failure({
      model,
      runtime: createToolRuntime({ tools, store }),
      messages,
      sessionId: 's',
      ...extra,
    } as RunOptions);
    expect(error).toMatchObject({ code: 'CALLBACK_FAILED', callback });
    expect(error.cause).toBeDefined();
    const outcome = outcomeOf(error);
    expect(outcome.messages.length).toBeGreaterThanOrEqual(messages.length);
    expect(historyProblems(outcome.messages)).toEqual([]);
    expect(store.size).toBe(1);
    if (outcome.type === 'stopped' && callback !== 'handoff' && callback !== 'fallback') {
      expect(outcome.reason).toBe('CALLBACK_FAILED');
      expect(outcome.evidence).toMatchObject({ kind: 'error', callback });
    }
  });

  it.each([
    ['decide', { decide: boom }, 0],
    ['wrapToolExecution', { wrapToolExecution: boom }, 0],
    [
      'a wrapToolExecution that runs the call, then resolves to nonsense',
      {
        wrapToolExecution: async (_call: unknown, next: () => Promise<unknown>) => {
          await next();
          return 'ok';
        },
      },
      1,
    ],
  ])('%s in the loop: CallbackError, every call answered, the guard saved', async (_name, extra, ran) => {
    let executions = 0;
    const { tools, messages } = contractMismatchScenario.build();
    const counted = tools.map((tool) => ({
      ...tool,
      execute: (args: unknown, context: never) => {
        executions++;
        return tool.execute(args, context);
      },
    }));
    const model = new ScriptedModel({
      script: [assistantWithCalls([{ name: 'queryOrderStatus', arguments: { orderId: 'A-1' } }])],
    });
    const store = new MemoryStore();
    const error = await failure({
      model,
      runtime: createToolRuntime({ tools: counted, store, ...extra } as ToolRuntimeOptions),
      messages,
      sessionId: 's',
    });
    const callback = _name.startsWith('a ') ? 'wrapToolExecution' : _name;
    expect(error).toMatchObject({ code: 'CALLBACK_FAILED', callback });
    const outcome = outcomeOf(error);
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'CALLBACK_FAILED' });
    expect(historyProblems(outcome.messages)).toEqual([]);
    expect(outcome.messages.at(-1)).toMatchObject({ role: 'tool', isError: true });
    expect(executions).toBe(ran);
    expect(store.size).toBe(1);
  });

  it('a fallback that fails leaves the default text in the outcome', async () => {
    const { model, tools, messages } = contractMismatchScenario.build();
    const outcome = outcomeOf(await failure({ model, tools, messages, fallback: boom }));
    expect(outcome).toMatchObject({
      type: 'stopped',
      reason: 'LOOP_DETECTED',
      text: expect.stringMatching(/^I could not finish this request: it kept repeating/),
    });
    expect(outcome.roundTrips).toBe(3);
  });

  it('wrapModelCall passing the model’s own failure on is a model error, not a callback failure', async () => {
    const { tools, messages } = contractMismatchScenario.build();
    const model = {
      generate: async () => {
        throw new Error('429');
      },
    };
    const outcome = await runToolLoop({
      model,
      tools,
      messages,
      wrapModelCall: (request, next) => next(request),
    });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'MODEL_ERROR' });
  });

  it('wrapModelCall can answer from a cache without calling the model', async () => {
    const { model, tools, messages } = contractMismatchScenario.build();
    const outcome = await runToolLoop({
      model,
      tools,
      messages,
      wrapModelCall: async (request) => {
        expect(request.round).toBe(1);
        return { message: { role: 'assistant', content: 'cached answer' } };
      },
    });
    expect(outcome).toMatchObject({ type: 'completed', text: 'cached answer' });
    expect((model as { callCount?: number }).callCount ?? 0).toBe(0);
  });
});

describe('the store', () => {
  const hanging = storeWith({ get: () => new Promise(() => {}), set: () => new Promise(() => {}) });

  it('a load that never settles ends at the time budget, as BUDGET_EXHAUSTED; nothing is saved over it', async () => {
    const { model, tools, messages } = contractMismatchScenario.build();
    let saves = 0;
    const store = storeWith({
      get: () => new Promise(() => {}),
      set: async () => {
        saves++;
        return { ok: true, version: saves };
      },
    });
    // The time budget passes on a fake clock.
    vi.useFakeTimers();
    const running = runToolLoop({
      model,
      runtime: createToolRuntime({ tools, store }),
      messages,
      sessionId: 's',
      timeBudgetMs: 50,
    });
    await vi.advanceTimersByTimeAsync(50);
    const outcome = await running;
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'BUDGET_EXHAUSTED', roundTrips: 0 });
    expect(saves).toBe(0);
  });

  it("a load that never settles ends at the caller's abort", async () => {
    const { model, tools, messages } = contractMismatchScenario.build();
    const caller = new AbortController();
    const running = runToolLoop({
      model,
      runtime: createToolRuntime({ tools, store: hanging }),
      messages,
      sessionId: 's',
      signal: caller.signal,
    });
    caller.abort(new Error('client gone'));
    expect(await running).toMatchObject({
      type: 'stopped',
      reason: 'ABORTED',
      evidence: { error: new Error('client gone') },
    });
  });

  it('a load or save past the callback timeout fails the run with the outcome kept', async () => {
    // The callback timeout passes on a fake clock.
    vi.useFakeTimers();
    const { model, tools, messages } = contractMismatchScenario.build();
    const failing = failure({
      model,
      runtime: createToolRuntime({ tools, store: hanging }),
      messages,
      sessionId: 's',
      callbackTimeoutMs: 20,
    });
    await vi.advanceTimersByTimeAsync(20);
    const error = await failing;
    expect(error.callback).toBe('store.get');
    const saving = storeWith({ set: () => new Promise(() => {}) });
    const failingLate = failure({
      model,
      runtime: createToolRuntime({ tools, store: saving }),
      messages,
      sessionId: 's',
      callbackTimeoutMs: 20,
    });
    await vi.advanceTimersByTimeAsync(20);
    const late = await failingLate;
    expect(late.callback).toBe('store.set');
    expect(outcomeOf(late)).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED', roundTrips: 3 });
  });

  it('a save that never settles does not hold the run past its time budget', async () => {
    const { model, tools, messages } = contractMismatchScenario.build();
    let started = 0;
    const store = storeWith({
      set: () => {
        started++;
        return new Promise(() => {});
      },
    });
    // The callback timeout is as long as a timer holds: were the save waited for, the run would not end once
    // the time budget passed (on a fake clock), and the test would time out.
    vi.useFakeTimers();
    const running = runToolLoop({
      model,
      runtime: createToolRuntime({ tools, store }),
      messages,
      sessionId: 's',
      timeBudgetMs: 100,
      callbackTimeoutMs: 2_147_483_647,
    });
    await vi.advanceTimersByTimeAsync(100);
    const outcome = await running;
    expect(outcome.type).toBe('stopped');
    expect(started).toBe(1);
  });

  it('a save that fails after a completed run keeps the completed outcome', async () => {
    const { tools, messages } = contractMismatchScenario.build();
    const model = { generate: async () => ({ message: { role: 'assistant' as const, content: 'Paid.' } }) };
    const store = storeWith({
      set: async () => {
        throw new Error('disk full');
      },
    });
    const error = await failure({
      model,
      runtime: createToolRuntime({ tools, store }),
      messages,
      sessionId: 's',
    });
    expect(error.callback).toBe('store.set');
    expect(outcomeOf(error)).toMatchObject({ type: 'completed', text: 'Paid.' });
  });

  it.each([1e7, 3e7, 2 ** 32 - 1])(
    'a stored guard state with staleRounds %d starts afresh, and what is saved back is sane',
    async (staleRounds) => {
      const { model, tools, messages } = contractMismatchScenario.build();
      const store = new MemoryStore();
      await store.set(guardKey('s'), { schemaVersion: 2, nextRound: 5, window: [], staleRounds, nudged: [] });
      const outcome = await runToolLoop({
        model,
        runtime: createToolRuntime({ tools, store }),
        messages,
        sessionId: 's',
      });
      expect(outcome.type).toBe('stopped');
      const saved = (await store.get(guardKey('s')))?.value as {
        schemaVersion: number;
        nextRound: number;
        window: unknown[];
      };
      expect(saved).toMatchObject({ schemaVersion: 4, nextRound: 4 });
      expect(saved).not.toHaveProperty('staleRounds');
      expect(saved.window.length).toBeLessThanOrEqual(32);
    },
  );

  it('a stored state with ten-megabyte strings starts afresh and is not saved back', async () => {
    const { model, tools, messages } = contractMismatchScenario.build();
    const store = new MemoryStore();
    const huge = 'x'.repeat(10 * 1024 * 1024);
    await store.set(guardKey('s'), {
      schemaVersion: 2,
      nextRound: 5,
      window: [],
      staleRounds: 0,
      nudged: [huge],
    });
    await runToolLoop({ model, runtime: createToolRuntime({ tools, store }), messages, sessionId: 's' });
    expect(JSON.stringify((await store.get(guardKey('s')))?.value).length).toBeLessThan(100_000);
  });
});
