// The proxy's client transport to a remote server, against a scripted node:http server: JSON and SSE answers,
// the session and protocol headers, one kept socket for many requests, and hostile answers (over the size
// bound, malformed, of an unknown type, an error status, nobody listening): each a clear error, never a hang.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './__fixtures__/free-port.js';
import { until } from './__fixtures__/until.js';
import { mcpFailureKind } from './classify-mcp-failure.js';
import { isConnectionLoss } from './connect-upstream.js';
import { ResponseTooLargeError } from './response-too-large-error.js';
import { UpstreamHttpTransport } from './upstream-http-transport.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server | undefined;
let transport: UpstreamHttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  transport = undefined;
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A server answering each request with `handler`; `sockets`: how many connections it was opened. */
async function serve(handler: Handler): Promise<{ url: URL; sockets: () => number }> {
  let sockets = 0;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  server.on('connection', () => sockets++);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), sockets: () => sockets };
}

function open(url: URL, maxResponseBytes = 1024 * 1024): { received: JSONRPCMessage[]; errors: Error[] } {
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  transport = new UpstreamHttpTransport(url, { headers: { 'x-team': 'core' }, maxResponseBytes });
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error);
  return { received, errors };
}

const call = (id: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo' },
});
const answer = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } });

describe('UpstreamHttpTransport', () => {
  it('reads a JSON answer and an SSE answer; sends the session, protocol and configured headers', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const { url } = await serve((req, body, res) => {
      seen.push(req.headers);
      const { id } = JSON.parse(body) as { id: number };
      if (id === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's-1' });
        return void res.end(answer(id));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.write(': a comment\n\n');
      res.write(
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })}\n\n`,
      );
      // An event split across writes.
      const data = `data: ${answer(id)}\n\n`;
      res.write(data.slice(0, 10));
      res.end(data.slice(10));
    });
    const { received, errors } = open(url);
    await transport?.send(call(1));
    transport?.setProtocolVersion('2025-11-25');
    await transport?.send(call(2));
    await until(async () => received.length === 3);
    expect(
      received.map((message) => ('id' in message ? message.id : 'method' in message && message.method)),
    ).toEqual([1, 'notifications/progress', 2]);
    expect(errors).toEqual([]);
    expect(transport?.sessionId).toBe('s-1');
    expect(seen[0]?.['mcp-session-id']).toBeUndefined();
    expect(seen[1]).toMatchObject({
      'mcp-session-id': 's-1',
      'mcp-protocol-version': '2025-11-25',
      'x-team': 'core',
      accept: 'application/json, text/event-stream',
    });
  });

  it('keeps one socket for many requests', async () => {
    const { url, sockets } = await serve((_req, body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer((JSON.parse(body) as { id: number }).id));
    });
    const { received } = open(url);
    for (let id = 1; id <= 20; id++) await transport?.send(call(id));
    expect(received).toHaveLength(20);
    expect(sockets()).toBe(1);
  });

  it('a kept socket the server closed while idle is not used again: the next request goes on a new one', async () => {
    const { url, sockets } = await serve((_req, body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer((JSON.parse(body) as { id: number }).id));
    });
    if (server !== undefined) server.keepAliveTimeout = 200;
    const { received, errors } = open(url);
    await transport?.send(call(1));
    await until(async () => sockets() === 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await transport?.send(call(2));
    expect(received).toHaveLength(2);
    expect(errors).toEqual([]);
    expect(sockets()).toBe(2);
  });

  it('refuses an answer over the bound, declared or streamed, as RESPONSE_TOO_LARGE; the next one is read', async () => {
    const big = answer('x'.repeat(2_000));
    const { url } = await serve((_req, body, res) => {
      const { id } = JSON.parse(body) as { id: number };
      if (id === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(big) });
        return void res.end(big);
      }
      if (id === 2) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(big.slice(0, 600));
        res.write(big.slice(600, 1200));
        return void res.end(big.slice(1200));
      }
      if (id === 3) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.end(`data: ${big}\n\n`);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer(id));
    });
    const { received, errors } = open(url, 1_000);
    await expect(transport?.send(call(1))).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(transport?.send(call(2))).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    await transport?.send(call(3));
    await until(async () => errors.length > 0);
    expect(errors[0]).toBeInstanceOf(ResponseTooLargeError);
    await transport?.send(call(4));
    expect(received).toEqual([JSON.parse(answer(4))]);
  });

  it.each([
    ['a body that is not JSON', 'application/json', '{"jsonrpc": "2.0", ', 'broken'],
    ['JSON that is not JSON-RPC', 'application/json', '{"hello": "world"}', 'broken'],
    ['an HTML page', 'text/html', '<html>oops</html>', 'broken'],
  ])('%s: the request fails as a broken server, not a lost one', async (_name, type, body, kind) => {
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    });
    open(url);
    const error = await transport?.send(call(1)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(mcpFailureKind(error).kind).toBe(kind);
    expect(isConnectionLoss(error)).toBe(false);
  });

  it('a malformed SSE event is an error of its own; the stream and the next events go on', async () => {
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: {not json\n\nevent: other\ndata: ignored\n\ndata: {"x":1}\n\ndata: ${answer(1)}\n\n`);
    });
    const { received, errors } = open(url);
    await transport?.send(call(1));
    await until(async () => received.length === 1);
    expect(errors.map((error) => error.name)).toEqual(['SyntaxError', 'SyntaxError']);
  });

  it('an error status: 404 and 503 say the server is lost, 500 and 401 are answers', async () => {
    const { url } = await serve((req, _body, res) => {
      res.writeHead(Number(req.headers['x-status'] ?? 500), { 'content-type': 'text/plain' });
      res.end('no');
    });
    for (const [status, lost] of [
      [404, true],
      [503, true],
      [500, false],
      [401, false],
    ] as const) {
      transport = new UpstreamHttpTransport(url, {
        headers: { 'x-status': String(status) },
        maxResponseBytes: 1_000,
      });
      const error = await transport.send(call(1)).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toMatchObject({ code: status });
      expect(isConnectionLoss(error)).toBe(lost);
      await transport.close();
    }
  });

  it('nobody listening: a connection loss, said at once', async () => {
    const port = await freePort();
    open(new URL(`http://127.0.0.1:${port}/mcp`));
    const error = await transport?.send(call(1)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isConnectionLoss(error)).toBe(true);
    expect(String(error)).toContain('ECONNREFUSED');
  });

  it('opens the GET stream after initialized; a server that drops it for good is reported lost', async () => {
    let gets = 0;
    const { url } = await serve((req, _body, res) => {
      if (req.method === 'GET') {
        gets++;
        if (gets === 1) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return void res.end(
            `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })}\n\n`,
          );
        }
        res.writeHead(500).end();
        return;
      }
      res.writeHead(202).end();
    });
    const { received, errors } = open(url);
    await transport?.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await until(async () => received.length === 1);
    expect(received[0]).toMatchObject({ method: 'notifications/tools/list_changed' });
    // Dropped, it is opened again (500 twice), then given up on, as the SDK's own transport does.
    await until(async () => errors.some((error) => isConnectionLoss(error)), 10_000);
    expect(errors.at(-1)?.message).toMatch(/Maximum reconnection attempts/);
  }, 15_000);

  it('a GET answered 405 (no stream offered) is no error', async () => {
    const { url } = await serve((req, _body, res) => {
      res.writeHead(req.method === 'GET' ? 405 : 202).end();
    });
    const { errors } = open(url);
    await transport?.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(errors).toEqual([]);
  });

  it('after close, a send fails as not connected and nothing is left open', async () => {
    let held: ServerResponse | undefined;
    const { url } = await serve((_req, _body, res) => {
      held = res;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': waiting\n\n');
    });
    const { errors } = open(url);
    let closed = 0;
    if (transport !== undefined) transport.onclose = () => closed++;
    await transport?.send(call(1));
    await until(async () => held !== undefined);
    await transport?.close();
    expect(closed).toBe(1);
    await expect(transport?.send(call(2))).rejects.toThrow('Not connected');
    expect(errors).toEqual([]);
  });
});
