// The proxy's client transport to a remote upstream over Streamable HTTP (protocol 2025-11-25), on node:http.
//
// Why not the SDK's `StreamableHTTPClientTransport`: it goes through fetch (undici) and web streams for
// each message, and hands its long-lived abort signal to every fetch, so each call adds an abort listener
// to it (and creates AbortSignals of its own). Measured on a sequential `tools/call` (issue 26), that was
// about a quarter of the proxy's CPU per call. Here each POST is one request on a keep-alive socket, its
// answer read as JSON or as SSE (parsed by `eventsource-parser`, the SDK's own parser), up to a size bound.
import { Agent, type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createParser } from 'eventsource-parser';
import {
  DEFAULT_PROXY_UPSTREAM_SSE_RETRIES,
  DEFAULT_PROXY_UPSTREAM_SSE_RETRY_MS,
} from '../../core/defaults.js';
import { isJsonRpcMessage } from './is-json-rpc-message.js';
import { ResponseTooLargeError } from './response-too-large-error.js';
import { UpstreamHttpError } from './upstream-http-error.js';

/** `UpstreamHttpTransport`'s options. */
export interface UpstreamHttpTransportOptions {
  /** Sent with every request (the config's headers, their variables already read). */
  readonly headers: Readonly<Record<string, string>>;
  /** The largest answer to one POST read, in bytes; the GET stream is bounded per event instead. */
  readonly maxResponseBytes: number;
}

/** One MCP session with a remote server: POSTs for messages, one GET stream for the server's own. */
export class UpstreamHttpTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  /** Where each request goes, taken from the URL once (not parsed again per request). */
  readonly #target: { protocol: string; hostname: string; port: string; path: string };
  readonly #options: UpstreamHttpTransportOptions;
  readonly #request: typeof httpRequest;
  readonly #agent: Agent;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #closed = false;
  #retry: ReturnType<typeof setTimeout> | undefined;
  /** Requests under way, ended on close. */
  readonly #open = new Set<ClientRequest>();

  constructor(url: URL, options: UpstreamHttpTransportOptions) {
    this.#target = {
      protocol: url.protocol,
      // An IPv6 literal is written in brackets in a URL, without them as a host name.
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port,
      path: `${url.pathname}${url.search}`,
    };
    this.#options = options;
    const https = url.protocol === 'https:';
    this.#request = https ? httpsRequest : httpRequest;
    this.#agent = https ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true });
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('Not connected');
    const body = JSON.stringify(message);
    const response = await this.#post(body);
    const session = response.headers['mcp-session-id'];
    if (typeof session === 'string' && session !== '') this.#sessionId = session;
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) {
      const text = await readCapped(response, 64 * 1024).catch(() => '');
      throw new UpstreamHttpError(status, `Error POSTing to endpoint: ${text || response.statusMessage}`);
    }
    const isRequest = 'method' in message && 'id' in message;
    if (status === 202 || !isRequest) {
      response.resume();
      if ('method' in message && message.method === 'notifications/initialized') this.#openStream(0);
      return;
    }
    const type = mediaType(response.headers['content-type']);
    if (type === 'application/json') {
      const text = await readCapped(response, this.#options.maxResponseBytes);
      const parsed: unknown = JSON.parse(text);
      const messages = Array.isArray(parsed) ? parsed : [parsed];
      if (!messages.every(isJsonRpcMessage))
        throw new SyntaxError("the server's answer is not a JSON-RPC message");
      for (const each of messages) this.onmessage?.(each);
      return;
    }
    if (type === 'text/event-stream') {
      this.#readStream(response, this.#options.maxResponseBytes);
      return;
    }
    response.resume();
    throw new UpstreamHttpError(-1, `Unexpected content type: ${String(response.headers['content-type'])}`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    for (const request of this.#open) request.destroy();
    this.#open.clear();
    this.#agent.destroy();
    this.onclose?.();
  }

  #headers(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...extra };
    if (this.#sessionId !== undefined) headers['mcp-session-id'] = this.#sessionId;
    if (this.#protocolVersion !== undefined) headers['mcp-protocol-version'] = this.#protocolVersion;
    return { ...headers, ...this.#options.headers };
  }

  /**
   * POSTs `body`. Not tried again on a kept socket the server reset: the server may have read a write
   * (as with fetch, which does not retry a POST either); Node's agent drops a socket before the idle time
   * the server announces (`Keep-Alive: timeout`).
   */
  #post(body: string): Promise<IncomingMessage> {
    const headers = this.#headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': String(Buffer.byteLength(body)),
    });
    return this.#exchange('POST', headers, body);
  }

  #exchange(
    method: 'GET' | 'POST',
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const request = this.#request({ ...this.#target, method, headers, agent: this.#agent });
      this.#open.add(request);
      request.once('response', (response) => {
        response.once('close', () => this.#open.delete(request));
        resolve(response);
      });
      // `on`, not `once`: a socket error after the answer began must not find no listener.
      request.on('error', (error) => {
        this.#open.delete(request);
        reject(error);
      });
      request.end(body);
    });
  }

  /** The GET stream of the server's own messages; a lost one is opened again a few times, then reported. */
  #openStream(attempt: number): void {
    if (this.#closed) return;
    this.#exchange('GET', this.#headers({ accept: 'text/event-stream' }), undefined).then(
      (response) => {
        const status = response.statusCode ?? 0;
        if (status === 405) return void response.resume();
        if (status < 200 || status > 299) {
          response.resume();
          return this.#lost(
            attempt,
            new UpstreamHttpError(status, `Failed to open SSE stream: ${response.statusMessage}`),
          );
        }
        this.#readStream(response, undefined, () => this.#lost(0, undefined));
      },
      (error: unknown) => this.#lost(attempt, error),
    );
  }

  #lost(attempt: number, error: unknown): void {
    if (this.#closed) return;
    if (error !== undefined) this.onerror?.(asError(error));
    if (attempt >= DEFAULT_PROXY_UPSTREAM_SSE_RETRIES) {
      this.onerror?.(new Error(`Maximum reconnection attempts (${attempt}) exceeded.`));
      return;
    }
    this.#retry = setTimeout(
      () => {
        this.#retry = undefined;
        this.#openStream(attempt + 1);
      },
      DEFAULT_PROXY_UPSTREAM_SSE_RETRY_MS * 1.5 ** attempt,
    );
    this.#retry.unref();
  }

  /**
   * Each `message` event's JSON-RPC message to `onmessage`. `maxBytes`: the whole stream's bound (a POST's
   * answer); without it, each event is bounded instead (the GET stream, open for the session).
   */
  #readStream(response: IncomingMessage, maxBytes: number | undefined, onEnd?: () => void): void {
    let read = 0;
    const parser = createParser({
      maxBufferSize: this.#options.maxResponseBytes,
      onEvent: (event) => {
        if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
        try {
          const parsed: unknown = JSON.parse(event.data);
          if (!isJsonRpcMessage(parsed))
            throw new SyntaxError("the server's event is not a JSON-RPC message");
          this.onmessage?.(parsed);
        } catch (error) {
          this.onerror?.(asError(error));
        }
      },
      onError: (error) => {
        this.onerror?.(error);
        response.destroy();
      },
    });
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      read += Buffer.byteLength(chunk);
      if (maxBytes !== undefined && read > maxBytes) {
        this.onerror?.(tooLarge(maxBytes));
        response.destroy();
        return;
      }
      parser.feed(chunk);
    });
    response.once('error', (error) => {
      if (!this.#closed) this.onerror?.(new Error(`SSE stream disconnected: ${error.message}`));
    });
    response.once('close', () => {
      if (!this.#closed) onEnd?.();
    });
  }
}

/** The body as text, up to `maxBytes`: past it the request fails with `ResponseTooLargeError`, nothing more read. */
function readCapped(response: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      return reject(tooLarge(maxBytes));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    response.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.once('error', reject);
    response.once('close', () => reject(new Error('socket hang up: the answer was cut short')));
  });
}

function tooLarge(maxBytes: number): ResponseTooLargeError {
  return new ResponseTooLargeError(`the server's answer is over ${maxBytes} bytes; it was not read`);
}

function mediaType(value: string | undefined): string | undefined {
  return value?.split(';', 1)[0]?.trim().toLowerCase();
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
