// The README's adapter over the official `openai` SDK, against a local fake of chat completions.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeServer,
  sentMessages,
  startFakeOpenAiServer,
} from '../src/adapters/ai-sdk/__fixtures__/fake-openai-server.js';
import { historyProblems } from '../src/testing/index.js';
import { askWeather } from './openai-sdk.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a model adapter over the official openai SDK', () => {
  it('runs the loop through client.chat.completions.create with the mapper pair', async () => {
    server = await startFakeOpenAiServer([{ fixture: 'tool-call.json' }, { fixture: 'answer.json' }]);
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0 });
    const outcome = await askWeather(client);
    expect(outcome).toMatchObject({ type: 'completed', text: 'It is sunny in Paris.' });
    expect(outcome.usage).toEqual({ inputTokens: 83, outputTokens: 21, totalTokens: 104 });
    expect(historyProblems(outcome.messages)).toEqual([]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
    // The second request carries the call as the model wrote it (raw text) and the tool's result.
    expect(sentMessages(server, 1)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city": "Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Paris","sky":"sunny"}' },
    ]);
  });

  it("retries a 500 read from the SDK's APIError, then stops as MODEL_ERROR, the history intact", async () => {
    const failure = { fixture: 'server-error.json', status: 500 } as const;
    server = await startFakeOpenAiServer([failure, failure, failure]);
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0 });
    const outcome = await askWeather(client, { sleep: async () => {} });
    expect(server.requests).toHaveLength(3);
    expect(outcome).toMatchObject({
      type: 'stopped',
      reason: 'MODEL_ERROR',
      evidence: { model: { status: 500, providerError: 'server_error', attempts: 3 } },
    });
    expect(outcome.messages).toEqual([{ role: 'user', content: 'Weather in Paris?' }]);
  });
});
