import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The headers an app sends its key in (OpenAI's and Anthropic's SDKs, Azure's): none of them goes on when the
 * gateway sends its own key, so the provider never reads two.
 */
const CREDENTIALS = new Set(['authorization', 'x-api-key', 'api-key']);

/** The key the gateway puts on every upstream request instead of the app's (from its config). */
export interface UpstreamKey {
  /** `authorization` (sent as `Bearer <key>`) or another header that carries the key as it is (`x-api-key`). */
  readonly header: string;
  readonly value: string;
}

/**
 * The app's request headers as the provider gets them: every header but the hop-by-hop ones, `host` (the
 * provider's own), the ones the gateway owns (`owned`), and `content-length` when the body is rewritten;
 * the upstream key, when the gateway has one, in place of the app's (whichever header the app sent it in). A guarded request asks for an
 * unencoded answer (`accept-encoding: identity`): the gateway reads it.
 */
export function upstreamHeaders(
  headers: IncomingHttpHeaders,
  options: {
    readonly owned: ReadonlySet<string>;
    readonly key: UpstreamKey | undefined;
    readonly host: string;
    /** The body's length when the gateway sends its own; undefined when the app's goes as it came. */
    readonly bodyLength: number | undefined;
    readonly guarded: boolean;
  },
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const connectionTokens = tokens(headers.connection);
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || connectionTokens.has(name)) continue;
    if (name === 'host' || options.owned.has(name)) continue;
    if (options.bodyLength !== undefined && name === 'content-length') continue;
    if (options.guarded && name === 'accept-encoding') continue;
    if (options.key !== undefined && (name === options.key.header || CREDENTIALS.has(name))) continue;
    out[name] = value;
  }
  out.host = options.host;
  if (options.guarded) out['accept-encoding'] = 'identity';
  if (options.bodyLength !== undefined) out['content-length'] = options.bodyLength;
  if (options.key !== undefined)
    out[options.key.header] =
      options.key.header === 'authorization' ? `Bearer ${options.key.value}` : options.key.value;
  return out;
}

/**
 * The provider's response headers as the app gets them: every header but the hop-by-hop ones; when the
 * gateway sends a body of its own, without the length and encoding of the provider's.
 */
export function downstreamHeaders(
  headers: IncomingHttpHeaders,
  options: { readonly rewritten: boolean },
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const connectionTokens = tokens(headers.connection);
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || connectionTokens.has(name)) continue;
    if (options.rewritten && (name === 'content-length' || name === 'content-encoding')) continue;
    out[name] = value;
  }
  return out;
}

/** The header names a `Connection` header lists (also hop-by-hop). */
function tokens(value: string | undefined): ReadonlySet<string> {
  // `keep-alive`, what nearly every request and answer says, names a header that is hop-by-hop anyway.
  if (value === undefined || value === '' || value === 'keep-alive') return EMPTY;
  return new Set(value.split(',').map((token) => token.trim().toLowerCase()));
}

const EMPTY: ReadonlySet<string> = new Set();
