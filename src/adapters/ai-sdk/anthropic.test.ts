// fromAiSdkModel through the real @ai-sdk/anthropic provider, driven by runToolLoop, against a local fake
// of Anthropic's messages API (127.0.0.1, no network): tool_use blocks in, tool_result blocks out.
import { createAnthropic } from '@ai-sdk/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { defineTool } from '../../tools/define-tool.js';
import {
  type FakeAnswer,
  type FakeServer,
  sentMessages,
  startFakeAnthropicServer,
} from './__fixtures__/fake-anthropic-server.js';
import { ASK, weatherTool } from './__fixtures__/weather-tool.js';
import { fromAiSdkModel } from './from-ai-sdk-model.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(answers: readonly FakeAnswer[]) {
  server = await startFakeAnthropicServer(answers);
  return {
    server,
    model: fromAiSdkModel(createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' })('claude-x')),
  };
}

describe('fromAiSdkModel with @ai-sdk/anthropic', () => {
  it('runs a tool_use block and sends its tool_result back', async () => {
    const { server, model } = await start([{ fixture: 'tool-use.json' }, { fixture: 'answer.json' }]);
    const cities: string[] = [];
    const outcome = await runToolLoop({ model, messages: ASK, tools: [weatherTool(cities)] });
    expect(outcome).toMatchObject({ type: 'completed', text: 'It is sunny in Paris.' });
    expect(outcome.usage).toEqual({ inputTokens: 40 + 75, outputTokens: 18 + 8, totalTokens: 141 });
    expect(cities).toEqual(['Paris']);
    // Anthropic sends input as an object: the provider's JSON text of it is the raw arguments.
    expect(outcome.messages[1]).toEqual({
      role: 'assistant',
      content: 'I will look it up.',
      toolCalls: [{ id: 'toolu_01', name: 'weather', arguments: '{"city":"Paris"}' }],
    });
    const [first] = server.requests;
    expect(first).toMatchObject({ method: 'POST', url: '/v1/messages' });
    expect(first?.headers['x-api-key']).toBe('test-key');
    expect(first?.headers['anthropic-version']).toBe('2023-06-01');
    expect(first?.body).toMatchObject({
      model: 'claude-x',
      tools: [{ name: 'weather', input_schema: { type: 'object', required: ['city'] } }],
    });
    expect(sentMessages(server, 1)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'I will look it up.' },
          { type: 'tool_use', id: 'toolu_01', name: 'weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', content: '{"city":"Paris","sky":"sunny"}' },
        ],
      },
    ]);
  });

  it('sends a failed tool as a tool_result with is_error, redacted', async () => {
    const { server, model } = await start([{ fixture: 'tool-use.json' }, { fixture: 'answer.json' }]);
    const failing = defineTool({
      name: 'weather',
      description: 'The weather in a city.',
      effect: 'read',
      execute: () => {
        throw new Error('db password=hunter2 failed');
      },
    });
    const outcome = await runToolLoop({ model, messages: ASK, tools: [failing] });
    expect(outcome.type).toBe('completed');
    const sent = (server.requests[1]?.body as { messages: { content: unknown[] }[] } | undefined)
      ?.messages[2];
    expect(sent?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01', is_error: true, content: expect.any(String) },
    ]);
    expect(server.requests[1]?.text).not.toContain('hunter2');
  });

  it('retries a 529 overloaded answer, then stops as MODEL_ERROR naming overloaded_error', async () => {
    const overloaded = { fixture: 'overloaded.json', status: 529 } as const;
    const { server, model } = await start([overloaded, overloaded, overloaded]);
    const waits: number[] = [];
    const outcome = await runToolLoop({
      model,
      messages: ASK,
      tools: [weatherTool()],
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(server.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(outcome).toMatchObject({
      type: 'stopped',
      reason: 'MODEL_ERROR',
      evidence: {
        kind: 'error',
        error: { statusCode: 529, isRetryable: true },
        model: { status: 529, providerError: 'overloaded_error', attempts: 3, gaveUp: 'retries-exhausted' },
      },
      messages: ASK,
    });
  });
});
