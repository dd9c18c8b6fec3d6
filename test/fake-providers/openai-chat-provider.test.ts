// The fake provider speaks the wire the real `openai` SDK reads: plain and streamed answers, parallel calls
// in fragments, errors with their status and headers, a cut stream.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAIChat, loopingModel, scripted, startFakeOpenAIChat } from './openai-chat-provider.js';

const providers: FakeOpenAIChat[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
});

async function start(script: Parameters<typeof startFakeOpenAIChat>[0]['script']) {
  const provider = await startFakeOpenAIChat({ script });
  providers.push(provider);
  const client = new OpenAI({ baseURL: `${provider.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
  return { provider, client };
}

const TOOLS = [
  {
    type: 'function' as const,
    function: { name: 'getStatus', parameters: { type: 'object', properties: {} } },
  },
];

describe('the fake OpenAI chat provider', () => {
  it('answers a looping call until tools are off, and records each request', async () => {
    const { provider, client } = await start(loopingModel({ tool: 'getStatus', arguments: { id: 'A-1' } }));
    const first = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'status?' }],
      tools: TOOLS,
    });
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(first.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      id: 'call_0_0',
      function: { name: 'getStatus', arguments: '{"id":"A-1"}' },
    });
    const last = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'status?' }],
      tools: TOOLS,
      tool_choice: 'none',
    });
    expect(last.choices[0]?.message.content).toContain('I could not get further');
    expect(provider.requests.map((request) => request.path)).toEqual([
      '/v1/chat/completions',
      '/v1/chat/completions',
    ]);
    expect(provider.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('streams parallel calls in interleaved fragments that the SDK reassembles', async () => {
    const { client } = await start(
      scripted({
        kind: 'tool-calls',
        text: 'Checking.',
        calls: [
          { name: 'a', arguments: { long: 'x'.repeat(20) } },
          { name: 'b', arguments: { other: 1 } },
        ],
      }),
    );
    const stream = client.chat.completions.stream({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Checking.');
    expect(final.choices[0]?.message.tool_calls?.map((call) => call.function)).toEqual([
      { name: 'a', arguments: JSON.stringify({ long: 'x'.repeat(20) }) },
      { name: 'b', arguments: '{"other":1}' },
    ]);
    expect(final.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('answers errors with their status, body and headers, and cuts a stream off', async () => {
    const { client } = await start(
      scripted(
        { kind: 'error', status: 429, headers: { 'retry-after': '7' } },
        { kind: 'cut', reply: { kind: 'text', text: 'never finished' }, after: 2 },
      ),
    );
    const error = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'go' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('7');
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      stream: true,
    });
    const read = async () => {
      for await (const _chunk of stream) {
        // Read until the cut.
      }
    };
    await expect(read()).rejects.toThrow();
  });
});
