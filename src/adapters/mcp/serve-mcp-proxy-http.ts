import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DEFAULT_PROXY_HTTP_IDLE_MS,
  DEFAULT_PROXY_HTTP_MAX_BODY_BYTES,
  DEFAULT_PROXY_HTTP_MAX_SESSIONS,
} from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { CONVERSATION_HEADER, CONVERSATION_RULE, conversationOf } from './conversation-of.js';
import { HttpSessionTransport } from './http-session-transport.js';
import type { McpProxy, McpProxySession } from './mcp-proxy.js';
import { createStatelessFront, type StatelessFront } from './serve-stateless-mcp.js';

/** `serveMcpProxyHttp`'s options. */
export interface McpProxyHttpOptions {
  /** The address to listen on (`127.0.0.1` to keep it to this machine). */
  readonly host: string;
  /** The port; 0: any free one (see `url`). */
  readonly port: number;
  /**
   * Who a request is, from its `Authorization` header: a client id, or undefined to refuse it (401). `none`:
   * nobody is asked (allowed on a loopback address only, where the Host header is checked too).
   */
  readonly authenticate: ((authorization: string | undefined) => string | undefined) | 'none';
  /** Where operator lines go (a session opened or closed, a refusal's reason). */
  readonly onLog?: (line: string) => void;
}

/** The HTTP front of a proxy, listening. */
export interface McpProxyHttpServer {
  /** The MCP endpoint, `http://host:port/mcp`. */
  readonly url: string;
  /** The client sessions open now. */
  readonly sessions: number;
  /** Stops listening and closes every session (the proxy itself stays: close it after). */
  close(): Promise<void>;
}

interface Entry {
  readonly transport: HttpSessionTransport;
  readonly clientId: string | undefined;
  session: McpProxySession | undefined;
  lastSeen: number;
}

const PATH = '/mcp';
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Serves a proxy over MCP Streamable HTTP (protocol 2025-11-25, the v1 SDK's `Server` over a transport of
 * ours on node:http, `HttpSessionTransport`, which answers JSON when it can): many client sessions at once, each a session of the proxy with its
 * own limits, loop guard and idempotency scope (`<client id>/<MCP session id>`) and the client's id in its
 * audit records. Before anything runs, a request is refused: without a valid key (401), on another path
 * (404), with a body over `DEFAULT_PROXY_HTTP_MAX_BODY_BYTES` (413) or one that is not JSON (400), for a
 * session that is not its client's own (404, as if there were none). A session unused for
 * `DEFAULT_PROXY_HTTP_IDLE_MS` is closed. With the v2 SDK's server package installed, the stateless
 * protocol 2026-07-28 is served on the same endpoint too (`createStatelessFront`): its conversation is
 * named by the `x-toolwarden-session` header of each request, under the client's id.
 */
export async function serveMcpProxyHttp(
  proxy: McpProxy,
  options: McpProxyHttpOptions,
): Promise<McpProxyHttpServer> {
  const { isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS } = await import(
    '@modelcontextprotocol/sdk/types.js'
  );
  const log = options.onLog ?? (() => {});
  const loopback = LOOPBACK.has(options.host);
  if (options.authenticate === 'none' && !loopback)
    throw new InvalidOptionsError({
      option: 'authenticate',
      message: `"none" (no keys) listens on a loopback address only (127.0.0.1, ::1, localhost), not ${options.host}`,
    });
  const entries = new Map<string, Entry>();
  const stateless = await statelessFront(proxy, log);
  let port = options.port;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (loopback && !hostIsLoopback(req.headers.host, port))
      return refuse(res, 403, 'The Host header is not this loopback address.');
    if (pathOf(req.url) !== PATH) return refuse(res, 404, `Not found: the MCP endpoint is ${PATH}.`);
    const clientId =
      options.authenticate === 'none' ? undefined : options.authenticate(req.headers.authorization);
    if (options.authenticate !== 'none' && clientId === undefined) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return refuse(res, 401, 'A valid key is needed: Authorization: Bearer <key>.');
    }
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      res.setHeader('Allow', 'GET, POST, DELETE');
      return refuse(res, 405, 'Method not allowed.');
    }
    const header = req.headers['mcp-session-id'];
    const sessionHeader = Array.isArray(header) ? header[0] : header;
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJson(req);
      if (read.kind === 'too-large') return refuse(res, 413, 'The request body is too large.');
      if (read.kind === 'invalid') return refuse(res, 400, 'The request body is not JSON.', -32700);
      body = read.value;
    }
    // A 2026-07-28 request (its `_meta` envelope) has no session: it names its conversation itself.
    if (req.method === 'POST' && sessionHeader === undefined && (await stateless?.claims(req, body))) {
      const conversation = conversationOf(req.headers[CONVERSATION_HEADER]);
      if (conversation === false) return refuse(res, 400, CONVERSATION_RULE);
      return stateless?.handle(req, res, body, { clientId, conversation });
    }
    if (sessionHeader !== undefined) {
      const entry = entries.get(sessionHeader);
      // Another client's session is answered as no session at all: its id tells nothing.
      if (entry === undefined || entry.clientId !== clientId) return refuse(res, 404, 'Session not found.');
      entry.lastSeen = Date.now();
      return entry.transport.handle(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return refuse(
        res,
        400,
        'No session: the first request is an initialize request, without Mcp-Session-Id.',
      );
    const conversation = conversationOf(req.headers[CONVERSATION_HEADER]);
    if (conversation === false) return refuse(res, 400, CONVERSATION_RULE);
    if (entries.size >= DEFAULT_PROXY_HTTP_MAX_SESSIONS)
      return refuse(res, 503, 'Too many sessions are open; try again later.');
    const mcpSessionId = randomUUID();
    const transport = new HttpSessionTransport({
      sessionId: mcpSessionId,
      protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    });
    const entry: Entry = { transport, clientId, session: undefined, lastSeen: Date.now() };
    entries.set(mcpSessionId, entry);
    try {
      const scope = conversation ?? mcpSessionId;
      entry.session = await proxy.serve(transport, {
        sessionId: clientId === undefined ? scope : `${clientId}/${scope}`,
        ...(clientId === undefined ? {} : { clientId }),
        clientHeaders: headersOf(req, options.authenticate !== 'none'),
      });
    } catch (error) {
      entries.delete(mcpSessionId);
      throw error;
    }
    // The SDK's Server set the transport's onclose when it connected: chained to, not replaced.
    const serverClose = transport.onclose;
    transport.onclose = () => {
      serverClose?.();
      if (entries.delete(mcpSessionId)) log(`session ${entry.session?.sessionId ?? mcpSessionId} closed`);
    };
    log(`session ${entry.session.sessionId} opened`);
    transport.handle(req, res, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'The proxy could not handle this request.');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const sweep = setInterval(
    () => {
      const before = Date.now() - DEFAULT_PROXY_HTTP_IDLE_MS;
      for (const entry of entries.values()) if (entry.lastSeen < before) void entry.session?.close();
    },
    Math.min(60_000, DEFAULT_PROXY_HTTP_IDLE_MS),
  );
  sweep.unref();
  const hostText = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostText}:${port}${PATH}`,
    get sessions() {
      return entries.size;
    },
    async close() {
      clearInterval(sweep);
      await stateless?.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const entry of [...entries.values()]) await entry.session?.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * The request's headers for the servers that take a client's own (`fromClient`); with keys, the
 * `Authorization` header is the proxy's key and never passed on.
 */
function headersOf(req: IncomingMessage, keyed: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || (keyed && name === 'authorization')) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** A JSON-RPC error answer with an HTTP status, before anything ran; the connection is not kept for a refusal. */
function refuse(res: ServerResponse, status: number, message: string, code = -32000): void {
  if (status >= 400 && status !== 404) res.setHeader('Connection', 'close');
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

type Read = { kind: 'ok'; value: unknown } | { kind: 'too-large' } | { kind: 'invalid' };

/** The body as JSON, read up to `DEFAULT_PROXY_HTTP_MAX_BODY_BYTES` (a larger one is not read on). */
async function readJson(req: IncomingMessage): Promise<Read> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DEFAULT_PROXY_HTTP_MAX_BODY_BYTES) return { kind: 'too-large' };
  // Read by events rather than an async iterator: a measured share of each request's CPU.
  const text = await new Promise<string | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= DEFAULT_PROXY_HTTP_MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
  if (text === undefined) return { kind: 'too-large' };
  try {
    return { kind: 'ok', value: JSON.parse(text) };
  } catch {
    return { kind: 'invalid' };
  }
}

/** The path of a request's target, its query left out (`/mcp?x=1` is `/mcp`). */
function pathOf(target: string | undefined): string {
  if (target === undefined) return '/';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** Whether a Host header names this loopback listener (DNS rebinding: a web page's request names its own host). */
function hostIsLoopback(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host.toLowerCase());
}

/**
 * The 2026-07-28 leg, when the v2 SDK's server package (an optional peer) is installed; without it, such
 * requests reach the 2025 leg, which answers that a session starts with `initialize`.
 */
async function statelessFront(
  proxy: McpProxy,
  log: (line: string) => void,
): Promise<StatelessFront | undefined> {
  try {
    return await createStatelessFront(proxy, { onLog: log });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log(
      `protocol 2026-07-28 not served (it needs @modelcontextprotocol/server 2.x): ${reason.slice(0, 200)}`,
    );
    return undefined;
  }
}
