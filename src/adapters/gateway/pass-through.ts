import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { downstreamHeaders, upstreamHeaders } from './forward-headers.js';
import type { GatewayContext } from './gateway-context.js';
import { sendBody } from './http-io.js';
import { UpstreamError, type UpstreamRoute } from './upstream.js';
import type { WireError } from './wire.js';

/**
 * A request the gateway does not guard (another path, `GET /v1/models`), or a guarded path's request it
 * cannot read: sent to the provider as it came (the buffered body when it was read) and its answer back
 * as it came, status, headers and body, streamed both ways. Only the gateway's own headers, the hop-by-hop
 * ones and, when the gateway holds the key, the app's key are not passed on.
 */
export async function passThrough(
  context: GatewayContext,
  request: IncomingMessage,
  response: ServerResponse,
  signal: AbortSignal,
  options: {
    readonly body?: Buffer;
    readonly errorBody: (error: WireError) => unknown;
    /** The provider it goes to (default: the gateway's main one). */
    readonly route?: UpstreamRoute;
  },
): Promise<void> {
  const { body } = options;
  const { upstream: provider, key } = options.route ?? { upstream: context.upstream, key: context.key };
  let call: Awaited<ReturnType<GatewayContext['upstream']['call']>>;
  try {
    call = await provider.call({
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: upstreamHeaders(request.headers, {
        owned: context.owned,
        key,
        host: provider.host,
        bodyLength: body?.length,
        guarded: false,
      }),
      body: body ?? (hasBody(request) ? request : undefined),
      signal,
      timeoutMs: context.timeoutMs,
    });
  } catch (error) {
    sendUpstreamError(response, error, options.errorBody);
    return;
  }
  const upstream = call.response;
  response.writeHead(upstream.statusCode ?? 502, downstreamHeaders(upstream.headers, { rewritten: false }));
  try {
    await pipeline(upstream, response);
  } catch {
    // The provider or the app went away mid-answer: the app's connection ends where the answer did.
    response.destroy();
  }
}

/** The app's error when the provider could not be reached (502) or went quiet (504), in the wire's shape. */
export function sendUpstreamError(
  response: ServerResponse,
  error: unknown,
  errorBody: (error: WireError) => unknown,
): void {
  if (response.headersSent || response.destroyed) {
    response.destroy();
    return;
  }
  const failure = error instanceof UpstreamError ? error : undefined;
  if (failure?.kind === 'aborted') {
    response.destroy();
    return;
  }
  const wireError: WireError =
    failure?.kind === 'timeout'
      ? { status: 504, code: 'upstream_timeout', message: failure.message }
      : {
          status: 502,
          code: 'upstream_unreachable',
          message: failure?.message ?? 'the provider could not be reached',
        };
  sendBody(response, wireError.status, JSON.stringify(errorBody(wireError)));
}

/** Whether a request carries a body to stream on (GET and HEAD without a length do not). */
function hasBody(request: IncomingMessage): boolean {
  return (
    request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined
  );
}
