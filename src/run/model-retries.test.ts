// The loop's model retries and per-attempt timeout with in-process models (no server: see
// src/adapters/ai-sdk/model-retries-e2e.test.ts for a real provider over HTTP).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MODEL_TIMEOUT_MS } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { ModelTimeoutError } from '../core/errors/model-timeout-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { Model, ModelRequest } from '../core/model.js';
import type { RunEvent } from '../core/run-event.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { runToolLoop } from './run-tool-loop.js';

const USER: readonly Message[] = [{ role: 'user', content: 'go' }];
const ANSWER: Message = { role: 'assistant', content: 'done' };
const unavailable = () =>
  Object.assign(new Error('Service Unavailable'), {
    statusCode: 503,
    responseBody: '{"error":{"type":"server_error"}}',
  });

afterEach(() => {
  vi.useRealTimers();
});

function recordWaits() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

function failureOf(outcome: LoopOutcome) {
  return outcome.type === 'stopped' && outcome.evidence.kind === 'error' ? outcome.evidence.model : undefined;
}

describe('the model timeout', () => {
  it('is on by default: an attempt that never settles is aborted at DEFAULT_MODEL_TIMEOUT_MS', async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    const model: Model = {
      generate: (request) => {
        signals.push(request.signal);
        return new Promise(() => {});
      },
    };
    const running = runToolLoop({ model, messages: USER, tools: [], modelRetries: 0 });
    await vi.advanceTimersByTimeAsync(DEFAULT_MODEL_TIMEOUT_MS - 1);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const outcome = await running;
    expect(signals[0]?.aborted).toBe(true);
    expect(ModelTimeoutError.isInstance(signals[0]?.reason)).toBe(true);
    expect(outcome).toMatchObject({
      type: 'stopped',
      reason: 'MODEL_ERROR',
      evidence: { kind: 'error', model: { timeoutMs: DEFAULT_MODEL_TIMEOUT_MS, attempts: 1 } },
    });
  });

  it('bounds a stream that hangs too, closes it, and the retry answers', async () => {
    const answer = new ScriptedModel({ script: [ANSWER] });
    let closed = 0;
    let calls = 0;
    const model: Model = {
      stream: (request) => {
        calls++;
        if (calls > 1) return answer.stream(request);
        // Deaf to its signal: it ends only when the loop calls return().
        return {
          [Symbol.asyncIterator]: () => ({
            next: () => new Promise<never>(() => {}),
            return: async () => {
              closed++;
              return { done: true, value: undefined };
            },
          }),
        };
      },
    };
    // The model timeout passes on a fake clock.
    vi.useFakeTimers();
    const running = runToolLoop({
      model,
      messages: USER,
      tools: [],
      modelTimeoutMs: 20,
      sleep: recordWaits().sleep,
    });
    await vi.advanceTimersByTimeAsync(20);
    const outcome = await running;
    expect(outcome).toMatchObject({ type: 'completed', text: 'done' });
    expect({ calls, closed }).toEqual({ calls: 2, closed: 1 });
  });
});

describe('model retries', () => {
  it("retries inside wrapModelCall's next: the wrapper sees one call and its answer", async () => {
    const model = new ScriptedModel({
      script: [
        () => {
          throw unavailable();
        },
        ANSWER,
      ],
    });
    const { waits, sleep } = recordWaits();
    let wrapped = 0;
    const outcome = await runToolLoop({
      model,
      messages: USER,
      tools: [],
      sleep,
      wrapModelCall: (request, next) => {
        wrapped++;
        return next(request);
      },
    });
    expect(outcome).toMatchObject({ type: 'completed', text: 'done' });
    expect({ wrapped, calls: model.callCount, waits: waits.length }).toEqual({
      wrapped: 1,
      calls: 2,
      waits: 1,
    });
  });

  it("a wrapper that passes the last failure on gets a MODEL_ERROR with the failure's details", async () => {
    const model = new ScriptedModel({
      script: () => {
        throw unavailable();
      },
    });
    const outcome = await runToolLoop({
      model,
      messages: USER,
      tools: [],
      sleep: recordWaits().sleep,
      wrapModelCall: (request, next) => next(request),
    });
    expect(model.callCount).toBe(3);
    expect(failureOf(outcome)).toEqual({
      retryable: true,
      status: 503,
      providerError: 'server_error',
      attempts: 3,
      gaveUp: 'retries-exhausted',
    });
  });

  it('reports each retry as an event, with the raw error only under includeContent', async () => {
    for (const includeContent of [false, true]) {
      const failure = unavailable();
      const model = new ScriptedModel({
        script: [
          () => {
            throw failure;
          },
          ANSWER,
        ],
      });
      const events: RunEvent[] = [];
      await runToolLoop({
        model,
        messages: USER,
        tools: [],
        sleep: async () => {},
        includeContent,
        onEvent: (event) => events.push(event),
      });
      const retry = events.find((event) => event.type === 'model-call-retry');
      expect(retry).toMatchObject({
        round: 1,
        attempt: 2,
        errorType: 'Error',
        status: 503,
        providerError: 'server_error',
      });
      expect(retry !== undefined && 'error' in retry).toBe(includeContent);
      expect(events.map((event) => event.type)).toEqual([
        'run-start',
        'step-start',
        'model-call-start',
        'model-call-retry',
        'model-call-end',
        'step-end',
        'run-end',
      ]);
    }
  });

  it('does not retry a stream whose deltas were already reported', async () => {
    const model = new ScriptedModel({
      script: [
        { parts: [{ type: 'text-delta', delta: 'It is' }], after: 'throw', error: unavailable() },
        ANSWER,
      ],
    });
    const { waits, sleep } = recordWaits();
    const outcome = await runToolLoop({
      model,
      messages: USER,
      tools: [],
      sleep,
      streamDeltas: true,
      onEvent: () => {},
    });
    expect({ calls: model.callCount, waits }).toEqual({ calls: 1, waits: [] });
    expect(failureOf(outcome)).toMatchObject({ status: 503, attempts: 1, gaveUp: 'answer-streamed' });
  });

  it('does not retry an answer that is no answer, nor a failure that is not transient', async () => {
    for (const step of [
      { role: 'assistant', content: '' } as const,
      () => {
        throw Object.assign(new Error('Unauthorized'), { statusCode: 401 });
      },
    ]) {
      const model = new ScriptedModel({ script: [step, ANSWER] });
      const outcome = await runToolLoop({ model, messages: USER, tools: [], sleep: recordWaits().sleep });
      expect(model.callCount).toBe(1);
      expect(failureOf(outcome)).toMatchObject({ retryable: false, attempts: 1, gaveUp: 'not-retryable' });
    }
  });

  it("is not retried after the caller's abort during an attempt", async () => {
    const caller = new AbortController();
    const model = new ScriptedModel({
      script: [
        () => {
          caller.abort(new Error('user left'));
          throw unavailable();
        },
        ANSWER,
      ],
    });
    const { waits, sleep } = recordWaits();
    const outcome = await runToolLoop({ model, messages: USER, tools: [], sleep, signal: caller.signal });
    expect({ calls: model.callCount, waits }).toEqual({ calls: 1, waits: [] });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'ABORTED' });
  });

  it("ends a wait that ignores its signal at the caller's abort", async () => {
    const caller = new AbortController();
    const model = new ScriptedModel({
      script: [
        () => {
          throw unavailable();
        },
        ANSWER,
      ],
    });
    const outcome = await runToolLoop({
      model,
      messages: USER,
      tools: [],
      signal: caller.signal,
      sleep: () => {
        caller.abort(new Error('user left'));
        return new Promise(() => {});
      },
    });
    expect(model.callCount).toBe(1);
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'ABORTED' });
  });

  it('refuses bad retry and timeout options before anything runs', async () => {
    const model = new ScriptedModel({ script: [ANSWER] });
    for (const bad of [
      { modelRetries: -1 },
      { modelRetries: 1.5 },
      { modelRetries: 101 },
      { modelRetries: '2' },
      { modelTimeoutMs: 0 },
      { modelTimeoutMs: 2 ** 31 },
      { sleep: 'soon' },
    ]) {
      const options = { model, messages: USER, tools: [], ...bad } as unknown as Parameters<
        typeof runToolLoop
      >[0];
      await expect(runToolLoop(options), JSON.stringify(bad)).rejects.toThrow(InvalidOptionsError);
    }
    expect(model.callCount).toBe(0);
  });

  it('gives the model a signal of its own attempt, aborted with the run', async () => {
    const caller = new AbortController();
    const seen: ModelRequest[] = [];
    const model: Model = {
      generate: (request) => {
        seen.push(request);
        caller.abort(new Error('user left'));
        return new Promise(() => {});
      },
    };
    const outcome = await runToolLoop({ model, messages: USER, tools: [], signal: caller.signal });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'ABORTED' });
    expect(seen[0]?.signal.aborted).toBe(true);
    expect(seen[0]?.signal.reason).toEqual(new Error('user left'));
  });
});
