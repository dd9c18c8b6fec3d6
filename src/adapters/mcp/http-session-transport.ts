// One client session of the proxy's Streamable HTTP front (protocol 2025-11-25), on node:http directly.
//
// Why not the SDK's `StreamableHTTPServerTransport`: it turns every Node request into a Web `Request` and
// its answer back (through @hono/node-server, web ReadableStreams) and always answers a POST as an SSE
// stream written in several pieces. Measured on a sequential `tools/call` (issue 26), that was most of the
// proxy's ~4 ms of CPU per call. The spec lets a server answer a POST as `application/json` or as an SSE
// stream: here the answer is JSON, written at once, when the request's response is the first message for
// it; it becomes an SSE stream only when something comes before (progress, an elicitation request).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_PROXY_HTTP_MAX_BATCH, DEFAULT_PROXY_HTTP_SSE_KEEP_ALIVE_MS } from '../../core/defaults.js';
import { isJsonRpcMessage } from './is-json-rpc-message.js';

/** `HttpSessionTransport`'s options. */
export interface HttpSessionTransportOptions {
  /** The session's id, sent back in `mcp-session-id`. */
  readonly sessionId: string;
  /** The protocol versions a `mcp-protocol-version` header may name (the SDK's `SUPPORTED_PROTOCOL_VERSIONS`). */
  readonly protocolVersions: readonly string[];
}

/** A POST's answer while it is open: JSON until something other than its responses is sent, then SSE. */
interface Exchange {
  readonly res: ServerResponse;
  /** Its requests' ids not answered yet. */
  readonly waiting: Set<RequestId>;
  /** Responses held for a JSON answer, in the order they came. */
  readonly held: JSONRPCMessage[];
  readonly batch: boolean;
  sse: boolean;
  keepAlive: ReturnType<typeof setInterval> | undefined;
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;

/**
 * The SDK's `Transport` for one session, under the SDK's `Server`: `handle` serves each HTTP request of the
 * session (POST, GET for the server's own notifications, DELETE to end it). What comes before — the path,
 * auth, the body read within its cap and parsed, the session found — is the front's (`serveMcpProxyHttp`).
 */
export class HttpSessionTransport implements Transport {
  readonly sessionId: string;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  readonly #versions: ReadonlySet<string>;
  readonly #exchanges = new Map<RequestId, Exchange>();
  #initialized = false;
  #closed = false;
  #standalone:
    | { readonly res: ServerResponse; readonly keepAlive: ReturnType<typeof setInterval> }
    | undefined;

  constructor(options: HttpSessionTransportOptions) {
    this.sessionId = options.sessionId;
    this.#versions = new Set(options.protocolVersions);
  }

  async start(): Promise<void> {}

  /** Serves one request of this session; `body` is the POST's body, parsed. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): undefined {
    if (this.#closed) return answerError(res, 404, -32001, 'Session not found');
    switch (req.method) {
      case 'POST':
        return this.#post(req, res, body);
      case 'GET':
        return this.#get(req, res);
      case 'DELETE':
        if (!this.#versionOk(req, res)) return;
        res.writeHead(200).end();
        void this.close();
        return;
      default:
        res.setHeader('Allow', 'GET, POST, DELETE');
        return answerError(res, 405, -32000, 'Method not allowed.');
    }
  }

  #post(req: IncomingMessage, res: ServerResponse, body: unknown): undefined {
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
      return answerError(
        res,
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    if (!isJsonContentType(req.headers['content-type']))
      return answerError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    if (messages.length === 0 || messages.length > DEFAULT_PROXY_HTTP_MAX_BATCH)
      return answerError(
        res,
        400,
        -32600,
        `Invalid Request: a batch holds 1 to ${DEFAULT_PROXY_HTTP_MAX_BATCH} messages`,
      );
    if (!messages.every(isJsonRpcMessage))
      return answerError(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
    const initialize = messages.some((message) => methodOf(message) === 'initialize');
    if (initialize) {
      if (this.#initialized)
        return answerError(res, 400, -32600, 'Invalid Request: Server already initialized');
      if (messages.length > 1)
        return answerError(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
      this.#initialized = true;
    } else {
      if (!this.#initialized) return answerError(res, 400, -32000, 'Bad Request: Server not initialized');
      if (!this.#versionOk(req, res)) return;
    }
    const requests = messages.filter(isRequest);
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };
    if (requests.length === 0) {
      res.writeHead(202).end();
      for (const message of messages) this.onmessage?.(message, extra);
      return;
    }
    for (const request of requests)
      if (this.#exchanges.has(request.id))
        return answerError(res, 400, -32600, `Invalid Request: the id ${String(request.id)} is in use`);
    const exchange: Exchange = {
      res,
      waiting: new Set(requests.map((request) => request.id)),
      held: [],
      batch,
      sse: false,
      keepAlive: undefined,
    };
    for (const id of exchange.waiting) this.#exchanges.set(id, exchange);
    // The client gone before its answers: nothing more is written there, the ids are free again.
    res.once('close', () => this.#end(exchange));
    for (const message of messages) this.onmessage?.(message, extra);
  }

  #get(req: IncomingMessage, res: ServerResponse): undefined {
    if (!(req.headers.accept ?? '').includes('text/event-stream'))
      return answerError(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    if (!this.#initialized) return answerError(res, 400, -32000, 'Bad Request: Server not initialized');
    if (!this.#versionOk(req, res)) return;
    if (this.#standalone !== undefined)
      return answerError(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    res.flushHeaders();
    const standalone = { res, keepAlive: keepAlive(res) };
    this.#standalone = standalone;
    res.once('close', () => {
      clearInterval(standalone.keepAlive);
      if (this.#standalone === standalone) this.#standalone = undefined;
    });
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = 'id' in message && !('method' in message);
    const id = response ? (message.id as RequestId) : options?.relatedRequestId;
    if (id === undefined) {
      // The server's own notification or request: on the GET stream when the client keeps one open.
      if (response) throw new Error('A response needs the request it answers');
      const standalone = this.#standalone;
      if (standalone !== undefined && !standalone.res.writableEnded) standalone.res.write(event(message));
      return;
    }
    const exchange = this.#exchanges.get(id);
    // Its client went away (or the session closed): there is nobody to tell.
    if (exchange === undefined) return;
    if (!response) {
      this.#toSse(exchange);
      exchange.res.write(event(message));
      return;
    }
    exchange.waiting.delete(id);
    this.#exchanges.delete(id);
    if (exchange.sse) {
      if (exchange.waiting.size === 0) exchange.res.end(event(message));
      else exchange.res.write(event(message));
    } else {
      exchange.held.push(message);
      if (exchange.waiting.size === 0) {
        const body = JSON.stringify(exchange.batch ? exchange.held : exchange.held[0]);
        exchange.res.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'mcp-session-id': this.sessionId,
        });
        exchange.res.end(body);
      }
    }
    if (exchange.waiting.size === 0) this.#end(exchange);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const exchange of new Set(this.#exchanges.values())) {
      this.#end(exchange);
      if (exchange.sse) exchange.res.end();
      else answerError(exchange.res, 404, -32001, 'Session not found');
    }
    const standalone = this.#standalone;
    this.#standalone = undefined;
    if (standalone !== undefined) {
      clearInterval(standalone.keepAlive);
      standalone.res.end();
    }
    this.onclose?.();
  }

  /** Starts the SSE stream of an exchange, writing the responses held for JSON first. */
  #toSse(exchange: Exchange): void {
    if (exchange.sse) return;
    exchange.sse = true;
    const { res } = exchange;
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    for (const held of exchange.held) res.write(event(held));
    exchange.held.length = 0;
    exchange.keepAlive = keepAlive(res);
  }

  #end(exchange: Exchange): void {
    if (exchange.keepAlive !== undefined) clearInterval(exchange.keepAlive);
    exchange.keepAlive = undefined;
    for (const id of exchange.waiting) if (this.#exchanges.get(id) === exchange) this.#exchanges.delete(id);
    exchange.waiting.clear();
  }

  #versionOk(req: IncomingMessage, res: ServerResponse): boolean {
    const version = req.headers['mcp-protocol-version'];
    if (version === undefined || (typeof version === 'string' && this.#versions.has(version))) return true;
    answerError(
      res,
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${String(version)} (supported versions: ${[...this.#versions].join(', ')})`,
    );
    return false;
  }
}

/** A JSON-RPC error answer, not tied to a request, with an HTTP status. */
function answerError(res: ServerResponse, status: number, code: number, message: string): undefined {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
  return undefined;
}

function event(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** Comment lines now and then, so a proxy between does not close a quiet stream. */
function keepAlive(res: ServerResponse): ReturnType<typeof setInterval> {
  const timer = setInterval(() => {
    if (!res.writableEnded) res.write(': keepalive\n\n');
  }, DEFAULT_PROXY_HTTP_SSE_KEEP_ALIVE_MS);
  timer.unref();
  return timer;
}

function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const essence = value.split(';', 1)[0]?.trim().toLowerCase();
  return essence === 'application/json';
}

type Request = JSONRPCMessage & { readonly id: RequestId; readonly method: string };

function isRequest(message: unknown): message is Request {
  return methodOf(message) !== undefined && (message as { id?: unknown }).id !== undefined;
}

function methodOf(message: unknown): string | undefined {
  return (message as { method?: unknown }).method as string | undefined;
}
