// What the gateway does on the wire besides judging: pass-through, the provider's errors, keys and headers,
// bad input, a provider that answers garbage, never answers or cuts its stream, an app that goes away.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type FakeChatScript,
  messagesOf,
  scripted,
  startFakeOpenAIChat,
} from '../../../test/fake-providers/openai-chat-provider.js';
import { toolsOf } from './__fixtures__/client-loop.js';
import { createGateway } from './create-gateway.js';
import type { GatewayOptions } from './gateway-options.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function setUp(
  script: FakeChatScript,
  options: Omit<GatewayOptions, 'upstream'> & { apiKey?: string } = {},
) {
  const provider = await startFakeOpenAIChat({ script });
  open.push(provider);
  const { apiKey, ...rest } = options;
  const gateway = createGateway({
    upstream: { url: provider.url, ...(apiKey === undefined ? {} : { apiKey }) },
    ...rest,
  });
  open.push(gateway);
  const { url } = await gateway.listen({ port: 0 });
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'app-key', maxRetries: 0 });
  return { provider, url, client };
}

const ASK = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
const TEXT: FakeChatScript = () => ({ kind: 'text', text: 'hello' });

function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

describe('pass-through', () => {
  it("gives the app the provider's errors unchanged: status, body and retry headers", async () => {
    const body = { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } };
    const { url } = await setUp(
      scripted(
        {
          kind: 'error',
          status: 429,
          body,
          headers: { 'retry-after': '7', 'x-ratelimit-remaining-requests': '0' },
        },
        { kind: 'error', status: 503, body: { error: { message: 'overloaded' } } },
      ),
    );
    const limited = await post(url, JSON.stringify(ASK));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(await limited.json()).toEqual(body);
    const down = await post(url, JSON.stringify({ ...ASK, stream: true }));
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: { message: 'overloaded' } });
  });

  it('passes other paths and methods through unchanged (GET /v1/models, a 404, a query string)', async () => {
    const { provider, client, url } = await setUp(TEXT);
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['fake-model']);
    const missing = await fetch(`${url}/v1/files?purpose=x`, { method: 'POST', body: 'raw bytes' });
    expect(missing.status).toBe(404);
    expect(provider.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/files?purpose=x',
      text: 'raw bytes',
    });
  });

  it("passes the app's headers and key by default, keeps its own session header, and puts the gateway's key when it has one", async () => {
    const first = await setUp(TEXT);
    await first.client.chat.completions.create(ASK, {
      headers: { 'x-custom': 'kept', 'x-toolwarden-session': 's-1' },
    });
    const seen = first.provider.chatRequests()[0]?.headers;
    expect(seen).toMatchObject({ authorization: 'Bearer app-key', 'x-custom': 'kept' });
    expect(seen?.['x-toolwarden-session']).toBeUndefined();
    const keyed = await setUp(TEXT, { apiKey: 'gateway-key' });
    await keyed.client.chat.completions.create(ASK);
    await keyed.client.models.list();
    for (const request of keyed.provider.requests)
      expect(request.headers.authorization).toBe('Bearer gateway-key');
  });

  it('serves as the handler of a server of yours', async () => {
    const provider = await startFakeOpenAIChat({ script: TEXT });
    open.push(provider);
    const gateway = createGateway({ upstream: { url: provider.url } });
    open.push(gateway);
    const server = createServer((request, response) => {
      if (request.url === '/health') response.end('ok');
      else gateway.handler(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    server.closeIdleConnections();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${url}/health`)).text()).toBe('ok');
    const answer = await post(url, JSON.stringify(ASK));
    expect(await answer.json()).toMatchObject({ choices: [{ message: { content: 'hello' } }] });
    server.closeAllConnections();
  });

  it('sends a body it cannot guard (no messages list) and unknown fields as they came', async () => {
    const { provider, url } = await setUp(TEXT);
    const odd = '{"model":"m","input":"not chat","extra":{"deep":[1,2,3]}}';
    expect((await post(url, odd)).status).toBe(200);
    expect(provider.chatRequests()[0]?.text).toBe(odd);
    const history = JSON.stringify({
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'other', content: 'answer to nothing' },
      ],
      vendor_option: true,
    });
    expect((await post(url, history)).status).toBe(200);
    // A dangling call and an id that matches none: the provider judges the history, as sent.
    expect(provider.chatRequests()[1]?.text).toBe(history);
  });
});

describe('bad input', () => {
  it('answers a body that is not JSON with 400, and one over the limit with 413, in the wire’s error shape', async () => {
    const { provider, url } = await setUp(TEXT, { maxRequestBytes: 1000 });
    const bad = await post(url, '{"model": "m", "messages": [');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 'invalid_json', type: 'invalid_request_error' },
    });
    const large = await post(url, JSON.stringify({ ...ASK, padding: 'x'.repeat(5000) }));
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ error: { code: 'body_too_large' } });
    const badSession = await post(url, JSON.stringify(ASK), { 'x-toolwarden-session': ' '.repeat(3) });
    expect(badSession.status).toBe(400);
    expect(provider.chatRequests()).toHaveLength(0);
  });

  it('passes a provider’s garbage through unchanged', async () => {
    const { url } = await setUp(
      scripted({ kind: 'raw', body: '<html>bad gateway</html>', headers: { 'content-type': 'text/html' } }),
    );
    const answer = await post(url, JSON.stringify(ASK));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html');
    expect(await answer.text()).toBe('<html>bad gateway</html>');
  });

  it('answers 504 when the provider never answers, and 502 when it cannot be reached', async () => {
    const { url } = await setUp(() => ({ kind: 'hang' }), { timeoutMs: 200 });
    const slow = await post(url, JSON.stringify(ASK));
    expect(slow.status).toBe(504);
    expect(await slow.json()).toMatchObject({ error: { code: 'upstream_timeout', type: 'server_error' } });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gateway = createGateway({ upstream: { url: `http://127.0.0.1:${port}` } });
    open.push(gateway);
    const { url: orphan } = await gateway.listen({ port: 0 });
    const unreachable = await post(orphan, JSON.stringify(ASK));
    expect(unreachable.status).toBe(502);
    expect(await unreachable.json()).toMatchObject({ error: { code: 'upstream_unreachable' } });
  });

  it('aborts the provider’s request when the app goes away', async () => {
    const { provider, client } = await setUp(() => ({ kind: 'hang' }));
    const controller = new AbortController();
    const pending = client.chat.completions.create({ ...ASK, stream: true }, { signal: controller.signal });
    await vi.waitFor(() => expect(provider.chatRequests()).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await vi.waitFor(() => expect(provider.aborted()).toBe(1));
  });
  it('lets the app go away in the middle of a stream: the provider’s request is aborted, the gateway serves on', async () => {
    const { provider, client } = await setUp(() => ({ kind: 'text', text: 'word '.repeat(20_000) }));
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { ...ASK, stream: true },
      { signal: controller.signal },
    );
    let seen = '';
    // The SDK ends the iteration quietly when its own signal aborts it.
    for await (const chunk of stream) {
      seen += chunk.choices[0]?.delta?.content ?? '';
      if (seen.length >= 50) controller.abort();
    }
    expect(seen.length).toBeGreaterThanOrEqual(50);
    expect(seen.length).toBeLessThan(100_000);
    await vi.waitFor(() => expect(provider.aborted()).toBe(1));
    // Nothing hangs or crashes: the next request is served whole (and `close` in afterEach returns).
    const next = await client.chat.completions.create(ASK);
    expect(next.choices[0]?.message.content).toHaveLength(100_000);
  });
});

describe('streams', () => {
  it('passes parallel calls streamed in fragments, whole, when the turn may go on', async () => {
    const { client } = await setUp(
      scripted({
        kind: 'tool-calls',
        text: 'Looking.',
        calls: [
          { name: 'getStatus', arguments: { id: 'A-1', note: 'x'.repeat(30) } },
          { name: 'getOwner', arguments: { id: 'A-1' } },
        ],
      }),
    );
    const stream = client.chat.completions.stream({ ...ASK, tools: toolsOf('getStatus', 'getOwner') });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Looking.');
    expect(
      final.choices[0]?.message.tool_calls?.map((call) => call.type === 'function' && call.function),
    ).toEqual([
      { name: 'getStatus', arguments: JSON.stringify({ id: 'A-1', note: 'x'.repeat(30) }) },
      { name: 'getOwner', arguments: '{"id":"A-1"}' },
    ]);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('ends a stream the provider cut mid-call cleanly: the text so far, no call, a finish and [DONE]', async () => {
    const { client } = await setUp(
      scripted({
        kind: 'cut',
        after: 6,
        reply: {
          kind: 'tool-calls',
          text: 'Let me check',
          calls: [{ name: 'getStatus', arguments: { id: 'A-1' } }],
        },
      }),
    );
    const stream = client.chat.completions.stream({ ...ASK, tools: toolsOf('getStatus') });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Let me check');
    expect(final.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(final.choices[0]?.finish_reason).toBe('length');
  });

  it('removes secrets from the model’s arguments when asked to, streamed or not', async () => {
    const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    const script: FakeChatScript = () => ({
      kind: 'tool-calls',
      calls: [{ name: 'login', arguments: { token: SECRET, user: 'ann' } }],
    });
    const { client } = await setUp(script, { redact: { arguments: true } });
    const plain = await client.chat.completions.create({ ...ASK, tools: toolsOf('login') });
    const streamed = await client.chat.completions
      .stream({ ...ASK, tools: toolsOf('login') })
      .finalChatCompletion();
    for (const answer of [plain, streamed]) {
      const call = answer.choices[0]?.message.tool_calls?.[0];
      const args = call?.type === 'function' ? JSON.parse(call.function.arguments) : undefined;
      expect(args).toEqual({ token: '[redacted:secret]', user: 'ann' });
    }
  });
});

describe('messages of the tool rounds', () => {
  it('keeps the history the provider reads byte for byte when there is nothing to redact or note', async () => {
    const { provider, url } = await setUp(TEXT);
    // A number past 2^53 and the app's spacing survive: its bytes go as they came.
    const messages = JSON.stringify([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ]);
    const body = `{ "model": "m", "seed": 12345678901234567890, "messages": ${messages} }`;
    await post(url, body);
    expect(provider.chatRequests()[0]?.text).toBe(body);
    expect(messagesOf(provider.chatRequests()[0])).toHaveLength(3);
  });
});
