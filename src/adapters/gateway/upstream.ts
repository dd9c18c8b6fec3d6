import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { UpstreamKey } from './forward-headers.js';

/** Why a call to the provider failed before its answer was whole. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly kind: 'timeout' | 'connection' | 'aborted';
  constructor(kind: UpstreamError['kind'], message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

/** One call to the provider: its response (status and headers read), and why it failed later, if it did. */
export interface UpstreamCall {
  readonly response: IncomingMessage;
  /** Stops the call (the app went away, or the gateway has what it needs). */
  abort(): void;
  /** Set when the call failed after its headers (the provider went quiet past the timeout, or closed). */
  failure(): UpstreamError | undefined;
}

/** A provider and the key the gateway sends it in place of the app's (undefined: the app's passes through). */
export interface UpstreamRoute {
  readonly upstream: Upstream;
  readonly key: UpstreamKey | undefined;
}

/** The provider the gateway fronts: one base URL, one pool of kept-alive connections. */
export interface Upstream {
  /** The `host` header its requests carry. */
  readonly host: string;
  call(options: {
    readonly method: string;
    /** The app's path and query; the base URL's own path is put before it. */
    readonly path: string;
    readonly headers: OutgoingHttpHeaders;
    /** The whole body, or the app's request to stream through. */
    readonly body: string | Buffer | Readable | undefined;
    readonly signal: AbortSignal;
    /** The provider must start answering, and then send each next piece of its answer, within this. */
    readonly timeoutMs: number;
  }): Promise<UpstreamCall>;
  close(): void;
}

/** A provider at `url` (`https://api.openai.com`, `http://127.0.0.1:11434`, a path prefix allowed). */
export function createUpstream(url: URL): Upstream {
  const secure = url.protocol === 'https:';
  const client = secure ? https : http;
  const agent = new client.Agent({ keepAlive: true });
  const prefix = url.pathname.replace(/\/+$/, '');
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === '' ? (secure ? 443 : 80) : Number(url.port);
  return {
    host: url.host,
    call(options) {
      return new Promise<UpstreamCall>((resolve, reject) => {
        let failure: UpstreamError | undefined;
        const fail = (error: UpstreamError) => {
          failure ??= error;
          request.destroy(failure);
        };
        const request = client.request({
          agent,
          hostname,
          port,
          method: options.method,
          path: `${prefix}${options.path}`,
          headers: options.headers,
        });
        const onAbort = () => fail(new UpstreamError('aborted', 'the request was aborted'));
        if (options.signal.aborted) onAbort();
        options.signal.addEventListener('abort', onAbort, { once: true });
        request.setTimeout(options.timeoutMs, () =>
          fail(new UpstreamError('timeout', `the provider sent nothing for ${options.timeoutMs} ms`)),
        );
        request.once('response', (response) => {
          // A failure mid-answer reaches whoever reads it (and `failure()`); unread, it must not crash the process.
          response.on('error', () => {});
          response.once('close', () => options.signal.removeEventListener('abort', onAbort));
          resolve({
            response,
            abort: () => fail(new UpstreamError('aborted', 'the request was aborted')),
            failure: () => failure,
          });
        });
        request.on('error', (error) => {
          options.signal.removeEventListener('abort', onAbort);
          reject(
            failure ??
              new UpstreamError('connection', `the provider could not be reached (${codeOf(error)})`, {
                cause: error,
              }),
          );
        });
        const { body } = options;
        if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) request.end(body);
        else body.pipe(request);
      });
    },
    close: () => agent.destroy(),
  };
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'network error';
}
