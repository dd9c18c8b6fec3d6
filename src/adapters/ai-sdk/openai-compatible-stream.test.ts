// fromAiSdkModel's stream through the real @ai-sdk/openai-compatible provider, driven by streamToolLoop
// with streamDeltas, against a local fake of OpenAI chat completions streaming SSE (127.0.0.1, no network).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelStreamError } from '../../core/errors/model-stream-error.js';
import type { LoopOutcome } from '../../core/loop-outcome.js';
import type { ModelResponse } from '../../core/model.js';
import type { RunEvent } from '../../core/run-event.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { streamToolLoop } from '../../run/stream-tool-loop.js';
import { historyProblems } from '../../testing/history-problems.js';
import { recordEvents } from '../../testing/record-events.js';
import { drainRun, textDeltas, toolInputDeltas } from './__fixtures__/drain-run.js';
import {
  type FakeAnswer,
  type FakeServer,
  startFakeOpenAiServer,
} from './__fixtures__/fake-openai-server.js';
import { ASK, weatherTool } from './__fixtures__/weather-tool.js';
import { fromAiSdkModel } from './from-ai-sdk-model.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(answers: readonly FakeAnswer[], onRequest?: () => void) {
  const server = await startFakeOpenAiServer(answers, onRequest === undefined ? {} : { onRequest });
  servers.push(server);
  const provider = createOpenAICompatible({
    baseURL: server.baseURL,
    name: 'fake',
    apiKey: 'test-key',
    includeUsage: true,
  });
  return { server, model: fromAiSdkModel(provider.chatModel('m')) };
}

/** The same exchange, streamed (with deltas) and not, each against its own server. */
async function bothWays(streamed: readonly FakeAnswer[], whole: readonly FakeAnswer[]) {
  const finishes: ModelResponse['finishReason'][] = [];
  const cities: string[] = [];
  const s = await start(streamed);
  const { events, outcome } = await drainRun(
    streamToolLoop({
      model: s.model,
      messages: ASK,
      tools: [weatherTool(cities)],
      streamDeltas: true,
      wrapModelCall: async (request, next) => {
        const response = await next(request);
        finishes.push(response.finishReason);
        return response;
      },
    }),
  );
  const w = await start(whole);
  const plain = await runToolLoop({ model: w.model, messages: ASK, tools: [weatherTool()] });
  return { server: s.server, events, outcome, plain, finishes, cities };
}

describe('fromAiSdkModel streaming with @ai-sdk/openai-compatible', () => {
  it('streams a call whose arguments come in fragments, then the answer: deltas in order, the outcome as unstreamed', async () => {
    const { server, events, outcome, plain, finishes, cities } = await bothWays(
      [{ fixture: 'stream-tool-call.sse' }, { fixture: 'stream-answer.sse' }],
      [{ fixture: 'tool-call.json' }, { fixture: 'answer.json' }],
    );
    expect(toolInputDeltas(events)).toEqual([
      [1, 0, 'call_1', 'weather', '{"city'],
      [1, 0, 'call_1', 'weather', '": "Par'],
      [1, 0, 'call_1', 'weather', 'is"}'],
    ]);
    expect(textDeltas(events)).toEqual([
      [2, 'It is'],
      [2, ' sunny'],
      [2, ' in Paris.'],
    ]);
    expect(outcome).toMatchObject({ type: 'completed', text: 'It is sunny in Paris.', roundTrips: 2 });
    expect(outcome.messages).toEqual(plain.messages);
    expect(outcome.usage).toEqual(plain.usage);
    expect(outcome.usage).toEqual({ inputTokens: 31 + 52, outputTokens: 12 + 9, totalTokens: 104 });
    expect(cities).toEqual(['Paris']);
    expect(finishes).toEqual([
      { unified: 'tool-calls', raw: 'tool_calls' },
      { unified: 'stop', raw: 'stop' },
    ]);
    expect(server.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    // Every delta of a round comes between its model-call-start and model-call-end.
    const types = events.map((e) => e.type);
    expect(types.indexOf('model-tool-input-delta')).toBeGreaterThan(types.indexOf('model-call-start'));
    expect(types.lastIndexOf('model-tool-input-delta')).toBeLessThan(types.indexOf('model-call-end'));
  });

  it('streams two parallel calls interleaved by index: each delta with its call, both run, the outcome as unstreamed', async () => {
    const { events, outcome, plain, cities } = await bothWays(
      [{ fixture: 'stream-parallel-calls.sse' }, { fixture: 'stream-answer.sse' }],
      [{ fixture: 'parallel-calls.json' }, { fixture: 'answer.json' }],
    );
    expect(toolInputDeltas(events)).toEqual([
      [1, 0, 'call_p1', 'weather', '{"city": '],
      [1, 1, 'call_p2', 'weather', '{"city":'],
      [1, 1, 'call_p2', 'weather', '"Oslo"}'],
      [1, 0, 'call_p1', 'weather', '"Paris"}'],
    ]);
    expect(outcome).toMatchObject({ type: 'completed', toolCalls: 2 });
    expect(outcome.messages).toEqual(plain.messages);
    expect(outcome.usage).toEqual(plain.usage);
    expect(cities.sort()).toEqual(['Oslo', 'Paris']);
  });

  it('answers arguments that stop mid-JSON (finish_reason length) with INVALID_JSON, the history well-formed', async () => {
    const { events, outcome, plain, finishes, cities } = await bothWays(
      [{ fixture: 'stream-truncated-arguments.sse' }, { fixture: 'stream-answer.sse' }],
      [{ fixture: 'truncated-arguments.json' }, { fixture: 'answer.json' }],
    );
    expect(toolInputDeltas(events).map((d) => d[4])).toEqual(['{"city": ', '"Par']);
    expect(finishes[0]).toEqual({ unified: 'length', raw: 'length' });
    expect(cities).toEqual([]);
    expect(outcome.type).toBe('completed');
    expect(outcome.messages[2]).toMatchObject({
      role: 'tool',
      toolCallId: 'call_t1',
      errorCode: 'INVALID_JSON',
    });
    expect(outcome.messages).toEqual(plain.messages);
    expect(historyProblems(outcome.messages)).toEqual([]);
  });

  it('a connection that drops mid-call stops the run as MODEL_ERROR, the half call kept only in the evidence', async () => {
    const { model } = await start([{ fixture: 'stream-dropped.sse' }]);
    const { events, outcome } = await drainRun(
      streamToolLoop({ model, messages: ASK, tools: [weatherTool()], streamDeltas: true }),
    );
    expect(toolInputDeltas(events).map((d) => d[4])).toEqual(['{"city', '": "Par']);
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'MODEL_ERROR', messages: ASK });
    const error =
      outcome.type === 'stopped' && outcome.evidence.kind === 'error' ? outcome.evidence.error : undefined;
    expect(ModelStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      partial: { text: '', toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city": "Par' }] },
    });
    // The provider's stream fails as an APICallError over undici's `terminated`.
    expect(error).toMatchObject({
      reason: 'threw',
      cause: { name: 'AI_APICallError', cause: { message: 'terminated' } },
    });
  });

  it('runToolLoop with streamDeltas reports the same deltas to onEvent', async () => {
    const { model } = await start([{ fixture: 'stream-tool-call.sse' }, { fixture: 'stream-answer.sse' }]);
    const recorder = recordEvents();
    const outcome = await runToolLoop({
      model,
      messages: ASK,
      tools: [weatherTool()],
      streamDeltas: true,
      onEvent: recorder.listener,
    });
    expect(outcome).toMatchObject({ type: 'completed', text: 'It is sunny in Paris.' });
    expect(toolInputDeltas(recorder.events).map((d) => d[4])).toEqual(['{"city', '": "Par', 'is"}']);
    expect(textDeltas(recorder.events).map((d) => d[1])).toEqual(['It is', ' sunny', ' in Paris.']);
  });

  it.each([
    ['the caller’s abort', 'ABORTED'],
    ['the time budget', 'BUDGET_EXHAUSTED'],
  ] as const)(
    'a stream that never ends is ended by %s, and the server sees the connection closed',
    async (by, reason) => {
      const { server, model } = await start([{ fixture: 'stream-hang.sse' }]);
      const caller = new AbortController();
      const options = by === 'the time budget' ? { timeBudgetMs: 300 } : { signal: caller.signal };
      const events: RunEvent[] = [];
      let outcome: LoopOutcome | undefined;
      const run = streamToolLoop({
        model,
        messages: ASK,
        tools: [weatherTool()],
        streamDeltas: true,
        ...options,
      });
      for (;;) {
        const next = await run.next();
        if (next.done === true) {
          outcome = next.value;
          break;
        }
        events.push(next.value);
        if (next.value.type === 'model-tool-input-delta' && by !== 'the time budget')
          caller.abort(new Error('user left'));
      }
      expect(outcome).toMatchObject({ type: 'stopped', reason, messages: ASK });
      expect(historyProblems(outcome.messages)).toEqual([]);
      expect(textDeltas(events).map((d) => d[1])).toEqual(['Looking', ' it up']);
      expect(toolInputDeltas(events)).toEqual([[1, 0, 'call_h1', 'weather', '{"city": "Pa']]);
      await server.clientClosed;
    },
  );

  it('a consumer that breaks out of the for-await closes the HTTP stream', async () => {
    const { server, model } = await start([{ fixture: 'stream-hang.sse' }]);
    const seen: string[] = [];
    for await (const event of streamToolLoop({
      model,
      messages: ASK,
      tools: [weatherTool()],
      streamDeltas: true,
    })) {
      if (event.type === 'model-text-delta') {
        seen.push(event.delta);
        break;
      }
    }
    expect(seen).toEqual(['Looking']);
    await server.clientClosed;
    expect(server.requests).toHaveLength(1);
  });

  it('leaving the model’s own stream closes the HTTP stream, with no signal aborted (the ReadableStream is cancelled)', async () => {
    const { server, model } = await start([{ fixture: 'stream-hang.sse' }]);
    const signal = new AbortController().signal;
    for await (const part of model.stream({ messages: ASK, tools: [], signal })) {
      expect(part).toEqual({ type: 'text-delta', delta: 'Looking' });
      break;
    }
    await server.clientClosed;
    expect(signal.aborted).toBe(false);
  });
});
