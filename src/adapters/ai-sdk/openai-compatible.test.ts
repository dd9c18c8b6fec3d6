// fromAiSdkModel through the real @ai-sdk/openai-compatible provider, driven by runToolLoop, against a
// local fake of OpenAI chat completions (127.0.0.1, no network).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelResponse } from '../../core/model.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { defineTool } from '../../tools/define-tool.js';
import {
  type FakeAnswer,
  type FakeServer,
  sentMessages,
  startFakeOpenAiServer,
} from './__fixtures__/fake-openai-server.js';
import { ASK, weatherTool } from './__fixtures__/weather-tool.js';
import { fromAiSdkModel } from './from-ai-sdk-model.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(answers: readonly FakeAnswer[], onRequest?: () => void) {
  server = await startFakeOpenAiServer(answers, onRequest === undefined ? {} : { onRequest });
  const provider = createOpenAICompatible({ baseURL: server.baseURL, name: 'fake', apiKey: 'test-key' });
  return { server, model: fromAiSdkModel(provider.chatModel('m')) };
}

describe('fromAiSdkModel with @ai-sdk/openai-compatible', () => {
  it('runs a tool call, then answers; the second request carries the call and its result', async () => {
    const { server, model } = await start([{ fixture: 'tool-call.json' }, { fixture: 'answer.json' }]);
    const cities: string[] = [];
    const outcome = await runToolLoop({ model, messages: ASK, tools: [weatherTool(cities)] });
    expect(outcome).toMatchObject({ type: 'completed', text: 'It is sunny in Paris.', roundTrips: 2 });
    expect(outcome.usage).toEqual({ inputTokens: 31 + 52, outputTokens: 12 + 9, totalTokens: 104 });
    expect(cities).toEqual(['Paris']);
    // The history keeps the model's own argument text (with its space); the provider re-serializes the object.
    expect(outcome.messages[1]).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city": "Paris"}' }],
    });
    const [first, second] = server.requests;
    expect(first).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(first?.headers.authorization).toBe('Bearer test-key');
    expect(first?.body).toMatchObject({
      model: 'm',
      tools: [{ type: 'function', function: { name: 'weather', parameters: { required: ['city'] } } }],
    });
    expect(second?.body).toMatchObject({ model: 'm' });
    expect(sentMessages(server, 1)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Paris","sky":"sunny"}' },
    ]);
  });

  it('runs two parallel calls and sends both results back in order', async () => {
    const { server, model } = await start([{ fixture: 'parallel-calls.json' }, { fixture: 'answer.json' }]);
    const cities: string[] = [];
    const outcome = await runToolLoop({ model, messages: ASK, tools: [weatherTool(cities)] });
    expect(outcome).toMatchObject({ type: 'completed', toolCalls: 2 });
    expect(cities.sort()).toEqual(['Oslo', 'Paris']);
    expect(sentMessages(server, 1)).toMatchObject([
      {},
      { role: 'assistant', tool_calls: [{ id: 'call_p1' }, { id: 'call_p2' }] },
      { role: 'tool', tool_call_id: 'call_p1', content: '{"city":"Paris","sky":"sunny"}' },
      { role: 'tool', tool_call_id: 'call_p2', content: '{"city":"Oslo","sky":"sunny"}' },
    ]);
  });

  it('answers arguments that stop mid-JSON with INVALID_JSON, keeps the raw text, and sends a well-formed request', async () => {
    const { server, model } = await start([
      { fixture: 'truncated-arguments.json' },
      { fixture: 'answer.json' },
    ]);
    const cities: string[] = [];
    const finishes: ModelResponse['finishReason'][] = [];
    const outcome = await runToolLoop({
      model,
      messages: ASK,
      tools: [weatherTool(cities)],
      wrapModelCall: async (request, next) => {
        const response = await next(request);
        finishes.push(response.finishReason);
        return response;
      },
    });
    expect(outcome).toMatchObject({ type: 'completed', text: 'It is sunny in Paris.' });
    expect(cities).toEqual([]);
    expect(finishes).toEqual([
      { unified: 'length', raw: 'length' },
      { unified: 'stop', raw: 'stop' },
    ]);
    expect(outcome.messages.slice(1, 3)).toEqual([
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_t1', name: 'weather', arguments: '{"city": "Par' }],
      },
      expect.objectContaining({
        role: 'tool',
        toolCallId: 'call_t1',
        isError: true,
        errorCode: 'INVALID_JSON',
      }),
    ]);
    expect(sentMessages(server, 1)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_t1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
      },
      {
        role: 'tool',
        tool_call_id: 'call_t1',
        content: expect.stringMatching(/^INVALID_JSON: The arguments are not valid JSON/),
      },
    ]);
  });

  it.each([
    [
      '429 with retry-after',
      { fixture: 'rate-limited.json', status: 429, headers: { 'retry-after': '1' } },
      429,
    ],
    ['500', { fixture: 'server-error.json', status: 500 }, 500],
  ] as const)(
    'stops as MODEL_ERROR on a %s with modelRetries: 0, after one request, with the history intact',
    async (_name, failure, status) => {
      const { server, model } = await start([{ fixture: 'tool-call.json' }, failure]);
      const outcome = await runToolLoop({ model, messages: ASK, tools: [weatherTool()], modelRetries: 0 });
      // doGenerate does not retry (maxRetries belongs to generateText): one request per attempt.
      expect(server.requests).toHaveLength(2);
      expect(outcome).toMatchObject({
        type: 'stopped',
        reason: 'MODEL_ERROR',
        roundTrips: 2,
        usage: { inputTokens: 31, outputTokens: 12 },
        evidence: {
          kind: 'error',
          error: { name: 'AI_APICallError', statusCode: status, isRetryable: true },
          model: { status, attempts: 1, retryable: true, gaveUp: 'retries-exhausted' },
        },
      });
      expect(outcome.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
      if (status === 429) {
        const error = (outcome as { evidence: { error: { responseHeaders: Record<string, string> } } })
          .evidence.error;
        expect(error.responseHeaders['retry-after']).toBe('1');
      }
    },
  );

  it('ends a response that never comes at the time budget, and the request is aborted', async () => {
    const { server, model } = await start([{ hang: true }]);
    const outcome = await runToolLoop({ model, messages: ASK, tools: [weatherTool()], timeBudgetMs: 200 });
    expect(outcome).toMatchObject({
      type: 'stopped',
      reason: 'BUDGET_EXHAUSTED',
      evidence: { kind: 'ceiling', limit: 'time', max: 200 },
      messages: ASK,
    });
    await server.clientClosed;
  });

  it("ends a response that never comes at the caller's abort, and the request is aborted", async () => {
    const caller = new AbortController();
    const { server, model } = await start([{ hang: true }], () => caller.abort(new Error('user left')));
    const outcome = await runToolLoop({
      model,
      messages: ASK,
      tools: [weatherTool()],
      signal: caller.signal,
    });
    expect(outcome).toMatchObject({
      type: 'stopped',
      reason: 'ABORTED',
      evidence: { kind: 'error', error: new Error('user left') },
      messages: ASK,
    });
    await server.clientClosed;
  });

  it('sends lone surrogates (in the question and a tool result) as well-formed JSON, unchanged', async () => {
    const { server, model } = await start([{ fixture: 'tool-call.json' }, { fixture: 'answer.json' }]);
    const broken = defineTool({
      name: 'weather',
      description: 'Answers with a broken pair.',
      effect: 'read',
      execute: () => 'half \ud800 pair',
    });
    const question = 'Weather in \udc00 Paris?';
    const outcome = await runToolLoop({
      model,
      messages: [{ role: 'user', content: question }],
      tools: [broken],
    });
    expect(outcome.type).toBe('completed');
    const text = server.requests[1]?.text ?? '';
    expect(text).not.toMatch(/[\ud800-\udfff]/);
    const sent = JSON.parse(text) as { messages: { content: unknown }[] };
    expect(sent.messages[0]?.content).toBe(question);
    expect(sent.messages[2]?.content).toBe((outcome.messages[2] as { content: string }).content);
  });
});
