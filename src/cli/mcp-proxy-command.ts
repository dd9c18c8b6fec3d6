import { resolve } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createMcpProxy } from '../adapters/mcp/mcp-proxy-server.js';
import {
  type ProxyConfig,
  parseProxyConfig,
  parseProxyConfigText,
} from '../adapters/mcp/proxy/proxy-config.js';
import { ProxyConfigError } from '../adapters/mcp/proxy/proxy-config-error.js';
import { MAX_PROXY_CONFIG_BYTES } from '../core/defaults.js';
import type { CommandIo } from './command-io.js';
import { packageVersion } from './package-version.js';
import { readBoundedFile } from './read-bounded-file.js';

export const MCP_PROXY_USAGE = `Usage: toolwarden mcp-proxy [--config toolwarden.json] -- <server command> [args...]

An MCP server over stdio in front of one MCP server (spawned over stdio): per client session it applies
call limits, the loop guard, output contracts, redaction of error texts, timeouts, idempotent writes,
confirmation of destructive tools (MCP elicitation), allow and deny lists, the audit log and telemetry.
Its refusals are isError results with toolwarden's codes. stdout is the MCP channel; logs go to stderr.

Options:
  --config <file>  the config file (docs/mcp.md: "toolwarden mcp-proxy config"); default: every default
  -h, --help       show this text

A call that needs the user's confirmation, from a client that cannot ask (no MCP elicitation), is
refused by default; stderr says so once per tool, with the config keys that change it.

Exit codes: 0 the client disconnected, 1 the server could not start or exited while the client was
connected, 2 usage error (bad arguments, a bad config file).
`;

type ProxyArgs =
  | { kind: 'run'; config: string | undefined; command: string; args: string[] }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string };

/** The arguments before `--` are the proxy's, the rest the server's command line, taken as it is. */
export function parseMcpProxyArgs(argv: readonly string[]): ProxyArgs {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  if (own.includes('-h') || own.includes('--help')) return { kind: 'help' };
  if (split === -1) return { kind: 'usage-error', message: 'mcp-proxy needs -- before the server command' };
  let config: string | undefined;
  for (let index = 0; index < own.length; index++) {
    const arg = own[index] as string;
    if (arg === '--config') {
      const value = own[++index];
      if (value === undefined || value === '')
        return { kind: 'usage-error', message: '--config needs a file' };
      config = value;
    } else if (arg.startsWith('--config=')) config = arg.slice('--config='.length);
    else return { kind: 'usage-error', message: `unknown argument for mcp-proxy: ${arg}` };
  }
  const [command, ...args] = argv.slice(split + 1);
  if (command === undefined || command === '')
    return { kind: 'usage-error', message: 'mcp-proxy needs a server command after --' };
  return { kind: 'run', config, command, args };
}

export interface McpProxyCommandDeps {
  /** The client's transport (default: stdio, the process's stdin and stdout). */
  readonly transport?: () => Promise<Transport>;
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
  } catch (error) {
    if (!ProxyConfigError.isInstance(error)) throw error;
    await io.stderr(`toolwarden mcp-proxy: ${error.message}\n`);
    return 2;
  }
  const log = (line: string) => void io.stderr(`toolwarden mcp-proxy: ${line}\n`);
  let proxy: Awaited<ReturnType<typeof createMcpProxy>>;
  try {
    proxy = await createMcpProxy({
      config,
      upstream: { command: parsed.command, args: parsed.args, cwd: io.cwd },
      onLog: log,
      serverInfo: { name: 'toolwarden-mcp-proxy', version: await packageVersion() },
    });
  } catch (error) {
    await io.stderr(
      `toolwarden mcp-proxy: the server "${parsed.command}" could not start: ${messageOf(error)}\n`,
    );
    return 1;
  }
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
      log(`the server "${parsed.command}" exited while the client was connected`);
      end(1);
    });
    io.signal?.addEventListener('abort', () => end(0), { once: true });
  });
  await session.close();
  await proxy.close();
  return code;
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
