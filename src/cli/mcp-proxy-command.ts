import { resolve } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createMcpProxy } from '../adapters/mcp/mcp-proxy-server.js';
import { parseKeysFile, resolveClientKeys } from '../adapters/mcp/proxy/client-keys.js';
import {
  type ProxyConfig,
  parseProxyConfig,
  parseProxyConfigText,
} from '../adapters/mcp/proxy/proxy-config.js';
import { ProxyConfigError } from '../adapters/mcp/proxy/proxy-config-error.js';
import { serveMcpProxyHttp } from '../adapters/mcp/serve-mcp-proxy-http.js';
import { MAX_PROXY_CONFIG_BYTES } from '../core/defaults.js';
import type { CommandIo } from './command-io.js';
import { packageVersion } from './package-version.js';
import { readBoundedFile } from './read-bounded-file.js';

export const MCP_PROXY_USAGE = `Usage: toolwarden mcp-proxy [--config toolwarden.json] [--listen HOST:PORT] -- <server command> [args...]
       toolwarden mcp-proxy [--config toolwarden.json] [--listen HOST:PORT] --url <https://server/mcp>
       toolwarden mcp-proxy --config toolwarden.json [--listen HOST:PORT]      (the config's "servers")

An MCP server in front of MCP servers: per client session it applies call limits, the loop guard, output
contracts, redaction of error texts, timeouts, idempotent writes, confirmation of destructive tools (MCP
elicitation), allow and deny lists, the audit log and telemetry. Its refusals are isError results with
toolwarden's codes. The upstream is one server spawned over stdio (after --), one remote server over
Streamable HTTP (--url, sent the config's upstream.headers), or the config's "servers", each under its
namespace (github.create_issue). Clients connect over stdio (default: stdout is the MCP channel, logs go
to stderr) or over Streamable HTTP (--listen, at http://HOST:PORT/mcp, each with its key: the config's
"auth"; MCP 2025-11-25, and the stateless 2026-07-28 too when @modelcontextprotocol/server is installed).

Options:
  --config <file>       the config file (docs/mcp.md: "toolwarden mcp-proxy config"); default: every default
  --url <url>           the one upstream is a remote MCP server over Streamable HTTP
  --listen <host:port>  serve clients over Streamable HTTP instead of stdio (needs "auth" in the config)
  -h, --help            show this text

A call that needs the user's confirmation, from a client that cannot ask (no MCP elicitation), is
refused by default; stderr says so once per tool, with the config keys that change it.

Exit codes: 0 the client disconnected (stdio) or the proxy was stopped (Ctrl-C), 1 the server could not
start or exited (every server, for "servers"), 2 usage error (bad arguments, a bad config or keys file).
`;

type Upstream =
  | { kind: 'command'; command: string; args: string[] }
  | { kind: 'url'; url: string }
  | { kind: 'servers' };

type ProxyArgs =
  | {
      kind: 'run';
      config: string | undefined;
      upstream: Upstream;
      listen: { host: string; port: number } | undefined;
    }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string };

/** The arguments before `--` are the proxy's, the rest the server's command line, taken as it is. */
export function parseMcpProxyArgs(argv: readonly string[]): ProxyArgs {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  if (own.includes('-h') || own.includes('--help')) return { kind: 'help' };
  const values: Record<'config' | 'url' | 'listen', string | undefined> = {
    config: undefined,
    url: undefined,
    listen: undefined,
  };
  for (let index = 0; index < own.length; index++) {
    const arg = own[index] as string;
    const option = (['config', 'url', 'listen'] as const).find(
      (name) => arg === `--${name}` || arg.startsWith(`--${name}=`),
    );
    if (option === undefined) {
      if (!arg.startsWith('-') && split === -1 && values.url === undefined)
        return { kind: 'usage-error', message: 'mcp-proxy needs -- before the server command' };
      return { kind: 'usage-error', message: `unknown argument for mcp-proxy: ${arg}` };
    }
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : own[++index];
    if (value === undefined || value === '' || value.startsWith('--'))
      return { kind: 'usage-error', message: `--${option} needs ${NEEDS[option]}` };
    values[option] = value;
  }
  const listen = values.listen === undefined ? undefined : parseListen(values.listen);
  if (listen === 'invalid')
    return { kind: 'usage-error', message: '--listen needs HOST:PORT (127.0.0.1:8080, [::1]:8080)' };
  let upstream: Upstream;
  if (split !== -1) {
    if (values.url !== undefined)
      return { kind: 'usage-error', message: 'mcp-proxy takes --url or a server command after --, not both' };
    const [command, ...args] = argv.slice(split + 1);
    if (command === undefined || command === '')
      return { kind: 'usage-error', message: 'mcp-proxy needs a server command after --' };
    upstream = { kind: 'command', command, args };
  } else if (values.url !== undefined) {
    if (!/^https?:\/\//.test(values.url) || !URL.canParse(values.url))
      return { kind: 'usage-error', message: '--url needs an http:// or https:// URL' };
    upstream = { kind: 'url', url: values.url };
  } else if (values.config !== undefined) upstream = { kind: 'servers' };
  else return { kind: 'usage-error', message: 'mcp-proxy needs -- before the server command' };
  return { kind: 'run', config: values.config, upstream, listen };
}

const NEEDS = { config: 'a file', url: 'a URL', listen: 'HOST:PORT' } as const;

function parseListen(text: string): { host: string; port: number } | 'invalid' {
  const match = /^(?:\[([0-9a-fA-F:]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text);
  if (match === null) return 'invalid';
  const port = Number(match[3]);
  if (port > 65_535) return 'invalid';
  return { host: (match[1] ?? match[2]) as string, port };
}

export interface McpProxyCommandDeps {
  /** The client's transport (default: stdio, the process's stdin and stdout). */
  readonly transport?: () => Promise<Transport>;
  /** The environment the config's variables are read from (default: `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * `toolwarden mcp-proxy`: runs until the client disconnects (0) or the upstream server exits (1). Nothing
 * but the MCP channel is written to stdout: every message goes to stderr.
 */
export async function runMcpProxyCommand(
  argv: readonly string[],
  io: CommandIo,
  deps: McpProxyCommandDeps = {},
): Promise<number> {
  const parsed = parseMcpProxyArgs(argv);
  switch (parsed.kind) {
    case 'help':
      await io.stderr(MCP_PROXY_USAGE);
      return 0;
    case 'usage-error':
      await io.stderr(`toolwarden: ${parsed.message}\n\n${MCP_PROXY_USAGE}`);
      return 2;
    case 'run':
      break;
    default: {
      const never: never = parsed;
      return never;
    }
  }
  let config: ProxyConfig;
  try {
    config = await readConfig(parsed.config, io.cwd);
    if (parsed.upstream.kind !== 'servers' && Object.keys(config.servers).length > 0)
      throw new ProxyConfigError({
        source: parsed.config ?? 'the defaults',
        problems: [
          { path: '$.servers', message: 'lists servers while the command line names one: choose one' },
        ],
      });
    if (parsed.upstream.kind === 'servers' && Object.keys(config.servers).length === 0)
      throw new ProxyConfigError({
        source: parsed.config ?? 'the defaults',
        problems: [
          {
            path: '$.servers',
            message: 'lists no server, and the command line names none (-- <command>, --url)',
          },
        ],
      });
  } catch (error) {
    if (!ProxyConfigError.isInstance(error)) throw error;
    await io.stderr(`toolwarden mcp-proxy: ${error.message}\n`);
    return 2;
  }
  const env = deps.env ?? process.env;
  let authenticate: Parameters<typeof serveMcpProxyHttp>[1]['authenticate'] | undefined;
  if (parsed.listen !== undefined) {
    const auth = await readAuth(config, parsed.config ?? 'the defaults', parsed.listen.host, io.cwd, env);
    if ('problem' in auth) {
      await io.stderr(`toolwarden mcp-proxy: ${auth.problem}\n`);
      return 2;
    }
    authenticate = auth.authenticate;
  }
  const log = (line: string) => void io.stderr(`toolwarden mcp-proxy: ${line}\n`);
  const name = upstreamName(parsed.upstream);
  let proxy: Awaited<ReturnType<typeof createMcpProxy>>;
  try {
    proxy = await createMcpProxy({
      config,
      ...upstreamOption(parsed.upstream, io.cwd),
      env,
      onLog: log,
      serverInfo: { name: 'toolwarden-mcp-proxy', version: await packageVersion() },
    });
  } catch (error) {
    await io.stderr(`toolwarden mcp-proxy: the server ${name} could not start: ${messageOf(error)}\n`);
    return 1;
  }
  if (parsed.listen !== undefined && authenticate !== undefined)
    return serveHttp(proxy, parsed.listen, authenticate, io, log, name);
  const transport = await (deps.transport ?? stdioTransport)();
  const session = await proxy.serve(transport);
  const code = await new Promise<number>((done) => {
    let ended = false;
    const end = (code: number) => {
      ended = true;
      done(code);
    };
    // The SDK's Server set the transport's onclose when it connected: chained to, not replaced.
    const serverClose = transport.onclose;
    transport.onclose = () => {
      serverClose?.();
      end(0);
    };
    // Once the client has gone, the proxy closes the server itself: that close is no news.
    void proxy.upstreamClosed.then(() => {
      if (ended) return;
      log(`the server ${name} exited while the client was connected`);
      end(1);
    });
    io.signal?.addEventListener('abort', () => end(0), { once: true });
  });
  await session.close();
  await proxy.close();
  return code;
}

/** Serves clients over Streamable HTTP until Ctrl-C (0) or every upstream is lost for good (1). */
async function serveHttp(
  proxy: Awaited<ReturnType<typeof createMcpProxy>>,
  listen: { host: string; port: number },
  authenticate: Parameters<typeof serveMcpProxyHttp>[1]['authenticate'],
  io: CommandIo,
  log: (line: string) => void,
  name: string,
): Promise<number> {
  let front: Awaited<ReturnType<typeof serveMcpProxyHttp>>;
  try {
    front = await serveMcpProxyHttp(proxy, { ...listen, authenticate, onLog: log });
  } catch (error) {
    await io.stderr(
      `toolwarden mcp-proxy: cannot listen on ${listen.host}:${listen.port}: ${messageOf(error)}\n`,
    );
    await proxy.close();
    return 2;
  }
  log(`listening on ${front.url}`);
  const code = await new Promise<number>((done) => {
    void proxy.upstreamClosed.then(() => {
      log(`the server ${name} is gone and will not be reconnected`);
      done(1);
    });
    io.signal?.addEventListener('abort', () => done(0), { once: true });
  });
  await front.close();
  await proxy.close();
  return code;
}

function upstreamOption(
  upstream: Upstream,
  cwd: string,
): Pick<Parameters<typeof createMcpProxy>[0], 'upstream'> {
  switch (upstream.kind) {
    case 'command':
      return { upstream: { command: upstream.command, args: upstream.args, cwd } };
    case 'url':
      return { upstream: { url: upstream.url } };
    case 'servers':
      return {};
    default: {
      const never: never = upstream;
      return never;
    }
  }
}

function upstreamName(upstream: Upstream): string {
  switch (upstream.kind) {
    case 'command':
      return `"${upstream.command}"`;
    case 'url':
      return upstream.url;
    case 'servers':
      return 'list (every server of "servers")';
    default: {
      const never: never = upstream;
      return never;
    }
  }
}

/**
 * The HTTP front's check of a request's key, from the config's `auth`: its clients' keys (from the
 * environment, or hashes) and its keys file. No `auth` is refused: an endpoint open to anyone on the
 * network is never the default. `"none"` is for a loopback address only.
 */
async function readAuth(
  config: ProxyConfig,
  source: string,
  host: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ authenticate: Parameters<typeof serveMcpProxyHttp>[1]['authenticate'] } | { problem: string }> {
  const auth = config.auth;
  if (auth === undefined)
    return {
      problem: `--listen needs "auth" in the config: the clients and their keys ({ "clients": { "<id>": { "env": "<VARIABLE>" } } } or a "keysFile"), or "none" on a loopback address`,
    };
  if (auth.kind === 'none') {
    if (!['127.0.0.1', '::1', 'localhost'].includes(host))
      return { problem: `"auth": "none" listens on a loopback address only (127.0.0.1, ::1), not ${host}` };
    return { authenticate: 'none' };
  }
  let fileEntries: [string, string][] = [];
  if (auth.keysFile !== undefined) {
    const read = await readBoundedFile(resolve(cwd, auth.keysFile), MAX_PROXY_CONFIG_BYTES);
    if ('problem' in read) return { problem: `the keys file ${auth.keysFile}: ${read.problem}` };
    const parsed = parseKeysFile(read.text);
    if (parsed.problems.length > 0)
      return { problem: new ProxyConfigError({ source: auth.keysFile, problems: parsed.problems }).message };
    fileEntries = parsed.entries;
  }
  const { keys, problems } = resolveClientKeys(auth.clients, fileEntries, env);
  if (problems.length > 0) return { problem: new ProxyConfigError({ source, problems }).message };
  if (keys.size === 0) return { problem: `"auth" names no client key: nobody could connect` };
  return { authenticate: (header) => keys.authenticate(header) };
}

async function readConfig(path: string | undefined, cwd: string): Promise<ProxyConfig> {
  if (path === undefined) return parseProxyConfig({}, 'the defaults');
  const read = await readBoundedFile(resolve(cwd, path), MAX_PROXY_CONFIG_BYTES);
  if ('problem' in read) {
    throw new ProxyConfigError({ source: path, problems: [{ path: '$', message: read.problem }] });
  }
  return parseProxyConfigText(read.text, path);
}

async function stdioTransport(): Promise<Transport> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const transport = new StdioServerTransport();
  // The SDK's stdio transport does not watch for the end of stdin: a client that exits closes the session.
  process.stdin.once('end', () => void transport.close());
  return transport;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
}
