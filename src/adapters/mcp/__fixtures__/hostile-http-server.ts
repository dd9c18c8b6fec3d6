// A hand-written remote MCP server over Streamable HTTP (stateless, JSON answers) that answers what the
// test says: each tool of its list misbehaves in its own way on the wire. `tools/list` holds `count` tools
// (the hostile ones first, then filler). GET (a notification stream) is 405, as servers without one answer.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a `tools/call` of each tool gets back. */
export const HOSTILE_TOOLS = {
  fine: 'a valid result',
  huge: 'a valid result of 33 MiB',
  garbage: 'a body that is not JSON, sent as JSON',
  'not-rpc': 'JSON that is not a JSON-RPC message',
  html: 'an HTML error page, status 200',
  slow: 'no answer until the server stops',
} as const;

export interface HostileHttpServer {
  readonly url: string;
  /** `tools/call`s received, by tool name. */
  readonly calls: string[];
  stop(): Promise<void>;
}

const object = { type: 'object', properties: {} };

export async function startHostileHttpServer(count: number): Promise<HostileHttpServer> {
  const calls: string[] = [];
  const held = new Set<ServerResponse>();
  const tools = [
    ...Object.entries(HOSTILE_TOOLS).map(([name, description]) => ({
      name,
      description,
      inputSchema: object,
    })),
    ...Array.from({ length: Math.max(0, count - Object.keys(HOSTILE_TOOLS).length) }, (_, index) => ({
      name: `filler_${index}`,
      description: `Filler tool ${index}.`,
      inputSchema: object,
    })),
  ];
  const http = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      id?: number;
      method: string;
      params?: { name?: string; protocolVersion?: string };
    };
    if (message.id === undefined) return void res.writeHead(202).end();
    const answer = (result: unknown) => json(res, { jsonrpc: '2.0', id: message.id, result });
    switch (message.method) {
      case 'initialize':
        return answer({
          protocolVersion: message.params?.protocolVersion ?? '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'hostile-http-server', version: '0' },
        });
      case 'tools/list':
        return answer({ tools });
      case 'tools/call':
        break;
      default:
        return json(res, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } });
    }
    const name = message.params?.name ?? '';
    calls.push(name);
    switch (name) {
      case 'huge': {
        // Streamed without a length: only counting what arrives can stop it.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(`{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`);
        const mebibyte = 'x'.repeat(1024 * 1024);
        for (let index = 0; index < 33 && !res.destroyed; index++)
          if (!res.write(mebibyte)) await drainedOrClosed(res);
        res.end('"}]}}');
        return;
      }
      case 'garbage':
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"jsonrpc": "2.0", "id": ');
        return;
      case 'not-rpc':
        return json(res, { hello: 'world' });
      case 'html':
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Oops</body></html>');
        return;
      case 'slow':
        held.add(res);
        return;
      default:
        return answer({ content: [{ type: 'text', text: `${name} answered` }] });
    }
  };
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    async stop() {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      for (const res of held) res.destroy();
      http.closeAllConnections();
      await closed;
    },
  };
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

function json(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
