// The proxy's own Streamable HTTP session transport: a JSON answer when a request's response comes first, an
// SSE stream when something comes before it (progress, an elicitation request of the proxy's confirmation),
// with the v1 SDK client on the other side; and raw hostile requests, each a clear HTTP error, never a crash
// or a hang, the session serving on.
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROXY_HTTP_MAX_BATCH } from '../../core/defaults.js';
import { type HttpUpstream, startHttpUpstream } from './__fixtures__/http-test-server.js';
import { until } from './__fixtures__/until.js';
import { HttpSessionTransport } from './http-session-transport.js';
import type { McpProxy } from './mcp-proxy.js';
import { createMcpProxy } from './mcp-proxy-server.js';
import { parseProxyConfig } from './proxy/proxy-config.js';
import { type McpProxyHttpServer, serveMcpProxyHttp } from './serve-mcp-proxy-http.js';

const TIMEOUT_MS = 30_000;

/** A server of one tool per case on `HttpSessionTransport`, one session per `initialize`, as the front does. */
async function startServer(): Promise<{
  url: string;
  servers: Server[];
  hanging: () => number;
  stop(): Promise<void>;
}> {
  let hanging = 0;
  const sessions = new Map<string, HttpSessionTransport>();
  const servers: Server[] = [];
  const http: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: unknown;
      try {
        body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(400).end();
      }
      const id = req.headers['mcp-session-id'];
      const known = typeof id === 'string' ? sessions.get(id) : undefined;
      if (known !== undefined) return known.handle(req, res, body);
      if (id !== undefined) return void res.writeHead(404).end();
      const transport = new HttpSessionTransport({
        sessionId: randomUUID(),
        protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
      });
      sessions.set(transport.sessionId, transport);
      const server = new Server({ name: 'transport-test', version: '0' }, { capabilities: { tools: {} } });
      servers.push(server);
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
      server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
        const token = request.params._meta?.progressToken;
        if (request.params.name === 'progress' && token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: 1, total: 2 },
          });
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: 2, total: 2 },
          });
        }
        if (request.params.name === 'hang') {
          hanging++;
          await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
        }
        if (request.params.name === 'ask') {
          const answer = await server.elicitInput({
            message: 'sure?',
            requestedSchema: { type: 'object', properties: {} },
          });
          return { content: [{ type: 'text', text: answer.action }] };
        }
        return { content: [{ type: 'text', text: request.params.name }] };
      });
      void server.connect(transport).then(() => transport.handle(req, res, body));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    servers,
    hanging: () => hanging,
    async stop() {
      for (const transport of sessions.values()) await transport.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content[0]?.text ?? '').toString();
}

const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** A raw session: its id after `initialize` and `notifications/initialized`. */
async function rawSession(url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
  expect(response.headers.get('content-type')).toBe('application/json');
  await response.json();
  const id = response.headers.get('mcp-session-id') ?? '';
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return id;
}

describe('HttpSessionTransport with the v1 SDK client', () => {
  let served: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    served = await startServer();
  });
  afterAll(async () => {
    await served?.stop();
  });

  async function connect(): Promise<Client> {
    const client = new Client({ name: 't', version: '0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: {} }));
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    return client;
  }

  it('answers a plain call with one JSON body, the session id in its headers', async () => {
    const id = await rawSession(served.url);
    const response = await fetch(served.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'plain' } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toBe(id);
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ text: 'plain' }] },
    });
  });

  it('switches to SSE when progress comes before the response: the client gets both, in order', async () => {
    const client = await connect();
    const progress: number[] = [];
    const result = await client.callTool({ name: 'progress', arguments: {} }, undefined, {
      onprogress: (note) => progress.push(note.progress),
    });
    expect(progress).toEqual([1, 2]);
    expect(textOf(result)).toBe('progress');
    // The next call, with nothing before its response, is JSON again and served as before.
    expect(textOf(await client.callTool({ name: 'plain', arguments: {} }))).toBe('plain');
    await client.close();
  });

  it('carries an elicitation request on the call stream; the answer comes on its own POST', async () => {
    const client = await connect();
    expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).toBe('accept');
    await client.close();
  });

  it("sends the server's own notifications on the session's GET stream", async () => {
    const client = await connect();
    let told = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      told++;
    });
    // The client opens its GET stream after `initialized`; the server's notification goes there.
    const server = served.servers.at(-1);
    await until(async () => {
      await server?.sendToolListChanged();
      return told > 0;
    });
    await client.close();
  });

  it('answers a batch of two calls with one JSON array, in the order the responses came', async () => {
    const id = await rawSession(served.url);
    const response = await fetch(served.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': id },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'one' } },
        { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'two' } },
      ]),
    });
    expect(response.headers.get('content-type')).toBe('application/json');
    const answers = (await response.json()) as { id: string }[];
    expect(answers.map((answer) => answer.id).sort()).toEqual(['a', 'b']);
  });
});

describe('HttpSessionTransport with hostile requests', () => {
  let served: Awaited<ReturnType<typeof startServer>>;
  let session: string;
  beforeAll(async () => {
    served = await startServer();
    session = await rawSession(served.url);
  });
  afterAll(async () => {
    await served?.stop();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(served.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': session, ...headers },
      body: JSON.stringify(body),
    });
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'plain' } };

  it.each([
    ['not JSON-RPC', { hello: 'world' }, 400],
    ['a wrong version', { ...call, jsonrpc: '1.0' }, 400],
    ['an object as id', { ...call, id: { x: 1 } }, 400],
    ['a fractional id', { ...call, id: 1.5 }, 400],
    ['a string as params', { ...call, params: 'x' }, 400],
    ['a number', 42, 400],
    ['null', null, 400],
    ['an empty batch', [], 400],
    ['a batch over the bound', Array.from({ length: DEFAULT_PROXY_HTTP_MAX_BATCH + 1 }, () => call), 400],
    ['a batch holding garbage', [call, 'x'], 400],
    ['a second initialize', { ...call, method: 'initialize' }, 400],
  ])('%s: refused with %s, a JSON-RPC error', async (_name, body, status) => {
    const response = await post(body);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
  });

  it('refuses a wrong Accept (406), a wrong Content-Type (415), an unknown protocol version (400)', async () => {
    expect((await post(call, { Accept: 'application/json' })).status).toBe(406);
    expect((await post(call, { 'Content-Type': 'text/plain' })).status).toBe(415);
    const version = await post(call, { 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(((await version.json()) as { error: { message: string } }).error.message).toContain('1999-01-01');
    const get = await fetch(served.url, {
      headers: { 'mcp-session-id': session, Accept: 'application/json' },
    });
    expect(get.status).toBe(406);
  });

  it('refuses a second GET stream (409) while one is open; a dropped one frees the place', async () => {
    const headers = { 'mcp-session-id': session, Accept: 'text/event-stream' };
    const first = new AbortController();
    const open = await fetch(served.url, { headers, signal: first.signal });
    expect(open.headers.get('content-type')).toBe('text/event-stream');
    expect((await fetch(served.url, { headers })).status).toBe(409);
    first.abort();
    await until(async () => {
      const again = await fetch(served.url, { headers, signal: AbortSignal.timeout(1_000) });
      if (again.status === 200) await again.body?.cancel();
      return again.status === 200;
    });
  });

  it('a request id still in use is refused; a client gone mid-call leaves the session serving', async () => {
    const gone = new AbortController();
    const pending = fetch(served.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': session },
      body: JSON.stringify({ ...call, id: 'held', params: { name: 'hang' } }),
      signal: gone.signal,
    }).catch(() => undefined);
    await until(async () => served.hanging() === 1);
    const reused = await post({ ...call, id: 'held' });
    expect(reused.status).toBe(400);
    gone.abort();
    await pending;
    // The id is free again once its client is gone; the session serves on.
    await until(async () => (await post({ ...call, id: 'held' })).status === 200);
    const done = await post({ ...call, id: 2 });
    expect(await done.json()).toMatchObject({ id: 2, result: { content: [{ text: 'plain' }] } });
  });

  it('answers notifications and responses alone with 202, and a closed session with 404', async () => {
    expect(
      (await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } })).status,
    ).toBe(202);
    expect((await post({ jsonrpc: '2.0', id: 'unknown', result: {} })).status).toBe(202);
    const deleted = await fetch(served.url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
    expect(deleted.status).toBe(200);
    // The harness still knows the transport: the transport itself says the session is gone.
    const after = await post(call);
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ error: { code: -32001 } });
  });
});

describe("the proxy's HTTP front asking for a confirmation", () => {
  let upstream: HttpUpstream;
  let proxy: McpProxy;
  let front: McpProxyHttpServer;
  beforeAll(async () => {
    upstream = await startHttpUpstream();
    proxy = await createMcpProxy({
      config: parseProxyConfig(
        { servers: { gh: { url: upstream.url } }, confirm: { tools: ['gh.create_issue'] }, auth: 'none' },
        'test config',
      ),
    });
    front = await serveMcpProxyHttp(proxy, { host: '127.0.0.1', port: 0, authenticate: 'none' });
  }, TIMEOUT_MS);
  afterAll(async () => {
    await front?.close();
    await proxy?.close();
    await upstream?.stop();
  });

  it('elicits on the call stream of a v1 client: accepted, the write runs; declined, it does not', async () => {
    for (const action of ['accept', 'decline'] as const) {
      const client = new Client({ name: 't', version: '0' }, { capabilities: { elicitation: { form: {} } } });
      const asked: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params.message);
        return { action, content: {} };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(front.url)));
      const result = await client.callTool({ name: 'gh.create_issue', arguments: { text: action } });
      expect(asked).toHaveLength(1);
      expect(result.isError === true).toBe(action === 'decline');
      expect(upstream.created.includes(action)).toBe(action === 'accept');
      await client.close();
    }
  });
});
