// The loop's model retries and timeout against a real provider: fromAiSdkModel over
// @ai-sdk/openai-compatible, driven by runToolLoop, against a local fake of OpenAI chat completions
// (127.0.0.1, no network). Waits go through an injected `sleep` that records them: nothing sleeps.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelTimeoutError } from '../../core/errors/model-timeout-error.js';
import type { LoopOutcome } from '../../core/loop-outcome.js';
import type { RunEvent } from '../../core/run-event.js';
import { explainStop } from '../../run/explain-stop.js';
import type { LoopSettings } from '../../run/loop-options.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import {
  type FakeAnswer,
  type FakeServer,
  startFakeOpenAiServer,
} from './__fixtures__/fake-openai-server.js';
import { ASK, weatherTool } from './__fixtures__/weather-tool.js';
import { fromAiSdkModel } from './from-ai-sdk-model.js';

const RATE_LIMITED = { fixture: 'rate-limited.json', status: 429 } as const;
const SERVER_ERROR = { fixture: 'server-error.json', status: 500 } as const;
const ANSWER = { fixture: 'answer.json' } as const;

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function modelAt(baseURL: string) {
  const provider = createOpenAICompatible({ baseURL, name: 'fake', apiKey: 'test-key' });
  return fromAiSdkModel(provider.chatModel('m'));
}

/** A run against the fake server's answers; every wait the loop asks for is recorded, none is slept. */
async function run(
  answers: readonly FakeAnswer[],
  options: Partial<LoopSettings> = {},
  onRequest?: () => void,
) {
  server = await startFakeOpenAiServer(answers, onRequest === undefined ? {} : { onRequest });
  const waits: number[] = [];
  const events: RunEvent[] = [];
  const outcome = await runToolLoop({
    model: modelAt(server.baseURL),
    messages: ASK,
    tools: [weatherTool()],
    sleep: async (ms) => {
      waits.push(ms);
    },
    onEvent: (event) => events.push(event),
    ...options,
  });
  const retries = events.filter((event) => event.type === 'model-call-retry');
  return { outcome, waits, retries, requests: server.requests.length, server };
}

function modelFailure(outcome: LoopOutcome) {
  return outcome.type === 'stopped' && outcome.evidence.kind === 'error' ? outcome.evidence.model : undefined;
}

describe('model retries against an OpenAI-compatible server', () => {
  it('a 429 with Retry-After: 1, then an answer: waits the 1000 ms asked for, and completes', async () => {
    const { outcome, waits, retries, requests } = await run([
      { ...RATE_LIMITED, headers: { 'retry-after': '1' } },
      ANSWER,
    ]);
    expect(outcome).toMatchObject({ type: 'completed', text: 'It is sunny in Paris.', roundTrips: 1 });
    expect(requests).toBe(2);
    expect(waits).toEqual([1000]);
    expect(retries).toEqual([
      {
        type: 'model-call-retry',
        round: 1,
        attempt: 2,
        delayMs: 1000,
        errorType: 'AI_APICallError',
        status: 429,
        providerError: 'rate_limit_exceeded',
        retryAfterMs: 1000,
      },
    ]);
  });

  it('honours retry-after-ms before Retry-After', async () => {
    const { outcome, waits } = await run([
      { ...RATE_LIMITED, headers: { 'retry-after-ms': '250', 'retry-after': '9' } },
      ANSWER,
    ]);
    expect(outcome.type).toBe('completed');
    expect(waits).toEqual([250]);
  });

  it('a 500 twice, then an answer: backs off 2 s then 4 s (with jitter) and completes', async () => {
    const { outcome, waits, requests } = await run([SERVER_ERROR, SERVER_ERROR, ANSWER]);
    expect(outcome).toMatchObject({ type: 'completed', roundTrips: 1 });
    expect(requests).toBe(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect(waits[0]).toBeLessThanOrEqual(2000);
    expect(waits[1]).toBeGreaterThanOrEqual(2000);
    expect(waits[1]).toBeLessThanOrEqual(4000);
  });

  it('a 500 every time: stops as MODEL_ERROR after 3 requests, and says 500 server_error', async () => {
    const { outcome, waits, requests } = await run([SERVER_ERROR, SERVER_ERROR, SERVER_ERROR]);
    expect(requests).toBe(3);
    expect(waits).toHaveLength(2);
    expect(outcome).toMatchObject({
      type: 'stopped',
      reason: 'MODEL_ERROR',
      messages: ASK,
      evidence: { kind: 'error', error: { name: 'AI_APICallError', statusCode: 500 } },
    });
    expect(modelFailure(outcome)).toEqual({
      status: 500,
      providerError: 'server_error',
      retryable: true,
      attempts: 3,
      gaveUp: 'retries-exhausted',
    });
    expect(outcome.type === 'stopped' && outcome.text).toContain(
      'the model provider answered 500 server_error after 3 attempts',
    );
    expect(explainStop(outcome)).toContain('the model provider answered 500 server_error after 3 attempts');
  });

  it('a 400 is not retried', async () => {
    const { outcome, waits, requests } = await run([
      { fixture: 'invalid-request.json', status: 400 },
      ANSWER,
    ]);
    expect(requests).toBe(1);
    expect(waits).toEqual([]);
    expect(modelFailure(outcome)).toEqual({
      status: 400,
      providerError: 'string_above_max_length',
      retryable: false,
      attempts: 1,
      gaveUp: 'not-retryable',
    });
  });

  it('a Retry-After beyond the 60 s the loop waits: no wait, a stop that says how long was asked', async () => {
    const { outcome, waits, requests } = await run([
      { ...RATE_LIMITED, headers: { 'retry-after': '3600' } },
      ANSWER,
    ]);
    expect(requests).toBe(1);
    expect(waits).toEqual([]);
    expect(modelFailure(outcome)).toMatchObject({
      status: 429,
      retryAfterMs: 3_600_000,
      attempts: 1,
      gaveUp: 'wait-too-long',
    });
    expect(outcome.type === 'stopped' && outcome.text).toContain(
      'it asked to wait 3600 s before another try, longer than the 60 s the loop waits',
    );
  });

  it('a wait that would pass the time budget is not waited', async () => {
    const { outcome, waits, requests } = await run(
      [{ ...RATE_LIMITED, headers: { 'retry-after': '30' } }, ANSWER],
      { timeBudgetMs: 10_000 },
    );
    expect(requests).toBe(1);
    expect(waits).toEqual([]);
    expect(modelFailure(outcome)).toMatchObject({ status: 429, gaveUp: 'time-budget' });
  });

  it("the caller's abort during the wait: no further request, the run stops as ABORTED", async () => {
    const caller = new AbortController();
    server = await startFakeOpenAiServer([RATE_LIMITED, ANSWER]);
    const outcome = await runToolLoop({
      model: modelAt(server.baseURL),
      messages: ASK,
      tools: [weatherTool()],
      signal: caller.signal,
      sleep: async () => {
        caller.abort(new Error('user left'));
      },
    });
    expect(server.requests).toHaveLength(1);
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'ABORTED', messages: ASK });
  });

  it('a response that never comes: the attempt ends at modelTimeoutMs, its request is aborted, and the retry answers', async () => {
    const { outcome, retries, requests, server } = await run([{ hang: true }, ANSWER], {
      modelTimeoutMs: 200,
    });
    expect(outcome).toMatchObject({ type: 'completed', text: 'It is sunny in Paris.' });
    expect(requests).toBe(2);
    expect(retries).toMatchObject([{ errorType: 'ModelTimeoutError', timeoutMs: 200, attempt: 2 }]);
    await server.clientClosed;
  });

  it('responses that never come, every time: a MODEL_ERROR naming the timeout, after 3 attempts', async () => {
    const { outcome, requests } = await run([{ hang: true }, { hang: true }, { hang: true }], {
      modelTimeoutMs: 100,
    });
    expect(requests).toBe(3);
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'MODEL_ERROR' });
    expect(
      outcome.type === 'stopped' &&
        ModelTimeoutError.isInstance(outcome.evidence.kind === 'error' && outcome.evidence.error),
    ).toBe(true);
    expect(modelFailure(outcome)).toMatchObject({ timeoutMs: 100, attempts: 3, gaveUp: 'retries-exhausted' });
    expect(outcome.type === 'stopped' && outcome.text).toContain(
      'the model did not answer within 100 ms after 3 attempts',
    );
  });

  it('a refused connection is retried as a network failure, and named', async () => {
    const closed = await startFakeOpenAiServer([]);
    await closed.close();
    const waits: number[] = [];
    const outcome = await runToolLoop({
      model: modelAt(closed.baseURL),
      messages: ASK,
      tools: [weatherTool()],
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(waits).toHaveLength(2);
    expect(modelFailure(outcome)).toMatchObject({
      networkError: 'ECONNREFUSED',
      retryable: true,
      attempts: 3,
      gaveUp: 'retries-exhausted',
    });
    expect(outcome.type === 'stopped' && outcome.text).toContain(
      'the model provider could not be reached (ECONNREFUSED) after 3 attempts',
    );
  });

  it('a streamed call whose doStream answers 429 is retried: nothing of it had streamed', async () => {
    const { outcome, waits, requests } = await run(
      [{ ...RATE_LIMITED, headers: { 'retry-after': '0' } }, { fixture: 'stream-answer.sse' }],
      {
        streamDeltas: true,
      },
    );
    expect(outcome).toMatchObject({ type: 'completed', text: 'It is sunny in Paris.' });
    expect(requests).toBe(2);
    expect(waits).toEqual([0]);
  });

  it('modelRetries: 0 makes one request', async () => {
    const { outcome, waits, requests } = await run([SERVER_ERROR, ANSWER], { modelRetries: 0 });
    expect(requests).toBe(1);
    expect(waits).toEqual([]);
    expect(modelFailure(outcome)).toMatchObject({ attempts: 1, gaveUp: 'retries-exhausted' });
  });
});
