import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { DEFAULT_PROXY_UPSTREAM_MAX_RESPONSE_BYTES } from '../../core/defaults.js';
import type { HeaderValue, UpstreamEnv } from './proxy/proxy-config-types.js';
import { hasControlCharacter } from './proxy/read-proxy-servers.js';
import { upstreamEnvironment } from './upstream-environment.js';

/** How to reach one upstream: spawn it over stdio, or connect to it over Streamable HTTP. */
export type UpstreamTarget =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly cwd: string | undefined;
      readonly env: UpstreamEnv;
      /** The server's stderr: the proxy's own or dropped. Never the proxy's stdout. */
      readonly stderr: 'inherit' | 'ignore';
    }
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, HeaderValue>> };

/** Thrown when a target cannot even be tried (a header's variable unset): no retry will help. */
export class UpstreamSetupError extends Error {
  override readonly name = 'UpstreamSetupError';
}

/**
 * A v1 `Client` connected to the target (protocol 2025-11-25, what the v1 SDK speaks). The SDK is imported
 * here, when a proxy connects, so `toolwarden/mcp` loads without it. `env` is the proxy's own
 * environment: the names the config passes on, and the headers' variables, are read from it.
 */
export async function connectUpstream(
  target: UpstreamTarget,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Client> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client: Client = new Client({ name: 'toolwarden-mcp-proxy', version: '0' }, { capabilities: {} });
  await client.connect(await transportOf(target, env));
  return client;
}

async function transportOf(
  target: UpstreamTarget,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Transport> {
  switch (target.kind) {
    case 'stdio': {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      return new StdioClientTransport({
        command: target.command,
        args: [...target.args],
        env: upstreamEnvironment(target.env, env),
        stderr: target.stderr,
        ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      });
    }
    case 'http': {
      // Ours on node:http, not the SDK's fetch-based one (see the file). A redirect is not followed: it
      // could carry the configured credentials elsewhere. One hostile answer cannot fill the proxy's
      // memory: each is read up to a bound.
      const { UpstreamHttpTransport } = await import('./upstream-http-transport.js');
      return new UpstreamHttpTransport(new URL(target.url), {
        headers: resolveHeaders(target.headers, env),
        maxResponseBytes: DEFAULT_PROXY_UPSTREAM_MAX_RESPONSE_BYTES,
      });
    }
    default: {
      const never: never = target;
      return never;
    }
  }
}

/** The headers' values, the variables read now; an unset variable is an `UpstreamSetupError` naming it. */
export function resolveHeaders(
  headers: Readonly<Record<string, HeaderValue>>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    switch (value.kind) {
      case 'value':
        result[name] = value.value;
        break;
      case 'env': {
        const read = env[value.name];
        if (read === undefined || read === '' || hasControlCharacter(read))
          throw new UpstreamSetupError(
            `the header ${name} reads the variable ${value.name}, which is ${read === undefined || read === '' ? 'not set' : 'not a valid header value'}`,
          );
        result[name] = `${value.prefix}${read}`;
        break;
      }
      // Filled in from the client's request by `withClientHeaders`: left here, the client did not send it.
      case 'client':
        throw new UpstreamSetupError(
          `the header ${name} is the client's ${value.name} header, which this client did not send`,
        );
      default: {
        const never: never = value;
        return never;
      }
    }
  }
  return result;
}

/** Whether a server is connected per client session: a header of its is the client's own. */
export function takesClientHeaders(target: UpstreamTarget): boolean {
  return target.kind === 'http' && Object.values(target.headers).some((value) => value.kind === 'client');
}

/**
 * The target with the client's headers in place of `fromClient` ones (as fixed values); a header the
 * client did not send stays, and connecting says so (`resolveHeaders`).
 */
export function withClientHeaders(
  target: UpstreamTarget,
  clientHeaders: Readonly<Record<string, string | undefined>>,
): UpstreamTarget {
  if (target.kind !== 'http') return target;
  const headers: Record<string, HeaderValue> = {};
  for (const [name, value] of Object.entries(target.headers)) {
    const sent = value.kind === 'client' ? clientHeaders[value.name] : undefined;
    headers[name] = sent === undefined || sent === '' ? value : { kind: 'value', value: sent };
  }
  return { ...target, headers };
}

/**
 * Whether an error says the upstream cannot be reached (the connection refused or reset, the HTTP session
 * gone, the SSE stream given up on), rather than that it answered: then it is down until reconnected.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  // The SDK's StreamableHTTPError (and our UpstreamHttpError) carries the HTTP status as its code: 404 is a
  // session the server forgot, 502 to 504 a server behind its gateway gone. Any other status is an answer
  // (a 500 is one call's failure).
  if (
    error.name === 'UpstreamHttpError' ||
    error.name === 'StreamableHTTPError' ||
    error.constructor?.name === 'StreamableHTTPError'
  )
    return code === 404 || code === 502 || code === 503 || code === 504;
  if (error.message === 'Not connected') return true;
  return (
    /fetch failed|Maximum reconnection attempts|ECONNREFUSED|ECONNRESET|socket hang up/.test(error.message) ||
    (error.cause instanceof Error && /ECONNREFUSED|ECONNRESET|other side closed/.test(String(error.cause)))
  );
}
