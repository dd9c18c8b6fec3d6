import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolRuntime } from '../../chain/runtime.js';
import { DEFAULT_MCP_MAX_LIST_PAGES, DEFAULT_PROXY_REQUEST_TIMEOUT_MARGIN_MS } from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { describeOptionValue } from '../../options/check-option.js';
import { defaultSchemaCompiler } from '../../schema/schema-compiler.js';
import { type McpTools, mcpToolsOf } from './from-mcp-client.js';
import { listMcpTools } from './list-mcp-tools.js';
import type { McpClientPort } from './mcp-client-port.js';
import type { McpProxy, McpProxyServeOptions, McpProxySession } from './mcp-proxy.js';
import { cannotConfirmNotice, noElicitationNotice } from './proxy/confirm-notice.js';
import { filterTools } from './proxy/filter-tools.js';
import type { ProxiedTool } from './proxy/mcp-shapes.js';
import type { ProxyConfig } from './proxy/proxy-config.js';
import { createSessionPolicy } from './proxy/session-policy.js';
import { createSessionAudit } from './proxy-audit.js';
import { openProxyResources } from './proxy-resources.js';
import { serveProxySession } from './proxy-session.js';
import { proxyRuntime, proxyToolSettings } from './proxy-tool-settings.js';
import { sdkV1Port } from './sdk-v1-port.js';
import { upstreamEnvironment } from './upstream-environment.js';

/** As `guardTools`' `sessionId`: longer ids are refused, not hashed, so an id stays readable in the audit. */
const MAX_SESSION_ID_CHARS = 200;

/**
 * Spawns the upstream with an explicit environment, connects a v1 `Client` to it and guards its tools
 * (`fromMcpClient`). Each session gets its own policy (limits, loop guard, idempotency scope): serve one
 * with `proxy.serve(transport)` (stdio for the CLI). The SDK is imported here, when a proxy starts, so
 * `toolwarden/mcp` loads without it.
 */
export async function createMcpProxy(
  /** The config, the upstream to spawn, where its log lines go. */
  options: {
    /** What the proxy lets through and how (`parseProxyConfig` reads it from the config file). */
    readonly config: ProxyConfig;
    /** The server the proxy fronts, spawned over stdio. */
    readonly upstream: {
      readonly command: string;
      readonly args?: readonly string[];
      readonly cwd?: string;
      /** The environment the config's `upstream.env.pass` names are read from (default `process.env`). */
      readonly env?: Readonly<Record<string, string | undefined>>;
      /** The server's stderr: the proxy's own (default) or dropped. Never the proxy's stdout. */
      readonly stderr?: 'inherit' | 'ignore';
    };
    /**
     * The proxy's log lines for its operator (the CLI writes them to stderr); default: dropped. Among them:
     * a session whose client cannot confirm (no elicitation) while some tools need it, and the first call
     * of each tool refused for that, with the config keys that change it.
     */
    readonly onLog?: (line: string) => void;
    /** The name and version the proxy gives its clients. */
    readonly serverInfo?: { readonly name: string; readonly version: string };
  },
): Promise<McpProxy> {
  const { config } = options;
  const log = options.onLog ?? (() => {});
  const [{ Client }, { StdioClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
  ]);
  const resources = await openProxyResources(config, (failure) =>
    log(`audit: ${failure.operation} failed, ${failure.lostRecords} record(s) lost`),
  );
  const client: Client = new Client({ name: 'toolwarden-mcp-proxy', version: '0' }, { capabilities: {} });
  let markClosed = () => {};
  const upstreamClosed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  client.onclose = () => markClosed();
  try {
    await client.connect(
      new StdioClientTransport({
        command: options.upstream.command,
        args: [...(options.upstream.args ?? [])],
        env: upstreamEnvironment(config.upstream.env, options.upstream.env ?? process.env),
        stderr: options.upstream.stderr ?? 'inherit',
        ...(options.upstream.cwd === undefined ? {} : { cwd: options.upstream.cwd }),
      }),
    );
  } catch (error) {
    await resources.close();
    throw error;
  }
  const port = sdkV1Port(client);
  const compiler = defaultSchemaCompiler();
  const sessions = new Set<McpProxySession>();
  const upstream: Upstream = { tools: [], runtime: undefined as unknown as ToolRuntime, mcp: undefined };
  const rebuild = async () => {
    const mcp = upstream.mcp;
    if (mcp === undefined) return;
    const raw = await listRaw(port, config);
    upstream.tools = filterTools(raw, config).filter(
      (tool) => mcp.info(chainName(mcp, tool.name)) !== undefined,
    );
    upstream.runtime = proxyRuntime(mcp.tools, config, resources);
    for (const skipped of mcp.skipped)
      log(`upstream tool ${skipped.name ?? `#${skipped.index}`} left out: ${skipped.problem}`);
  };
  try {
    upstream.mcp = await mcpToolsOf(
      port,
      {
        trusted: config.trustAnnotations,
        requestTimeoutMs: maxTimeout(config) + DEFAULT_PROXY_REQUEST_TIMEOUT_MARGIN_MS,
        tool: proxyToolSettings(config, compiler),
        schemaCompiler: compiler,
        onToolsChanged: (change) => {
          if ('error' in change) return log('the upstream tool list changed but could not be read');
          void rebuild().then(
            () => {
              for (const session of sessions) session.toolsChanged(upstream.tools);
            },
            () => log('the upstream tool list changed but could not be read'),
          );
        },
      },
      { asSent: true },
    );
    await rebuild();
  } catch (error) {
    await client.close().catch(() => {});
    await resources.close();
    throw error;
  }
  // Each tool refused for want of elicitation is said once per proxy (only the upstream's tools: bounded).
  const toldCannotConfirm = new Set<string>();
  const onCannotConfirm = (name: string) => {
    const tool = upstream.tools.find((listed) => listed.name === name);
    if (tool === undefined || toldCannotConfirm.has(name)) return;
    toldCannotConfirm.add(name);
    log(cannotConfirmNotice(name, tool, config));
  };
  const onNoElicitation = () => {
    const line = noElicitationNotice(upstream.tools, config);
    if (line !== undefined) log(line);
  };
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const types = await import('@modelcontextprotocol/sdk/types.js');
  return {
    get tools() {
      return upstream.tools;
    },
    upstreamClosed,
    flushAudit: async () => {
      await resources.audit?.flush();
    },
    async serve(transport, serveOptions = {}) {
      const sessionId = sessionIdOf(serveOptions);
      const server: Server = new Server(
        options.serverInfo ?? { name: 'toolwarden-mcp-proxy', version: '0' },
        {
          capabilities: { tools: { listChanged: true } },
        },
      );
      const policy = createSessionPolicy({ config, tools: upstream.tools });
      const session = await serveProxySession({
        server,
        transport,
        types,
        context: {
          config,
          policy,
          sessionId,
          idempotencyScope: config.idempotentWrites.scope ?? sessionId,
          audit: createSessionAudit(resources.audit, sessionId),
          runtime: () => upstream.runtime,
          chainName: (name) => (upstream.mcp === undefined ? name : chainName(upstream.mcp, name)),
          onCannotConfirm,
        },
        tools: () => upstream.tools,
        onNoElicitation,
        onClose: () => sessions.delete(session),
      });
      sessions.add(session);
      return session;
    },
    async close() {
      for (const session of [...sessions]) await session.close();
      upstream.mcp?.close();
      await client.close().catch(() => {});
      await resources.close();
    },
  };
}

interface Upstream {
  tools: ProxiedTool[];
  runtime: ToolRuntime;
  mcp: McpTools | undefined;
}

function chainName(mcp: McpTools, name: string): string {
  return mcp.nameMap.toProvider(name) ?? name;
}

/** The upstream's tool definitions as it sent them (every page): what `tools/list` passes on unchanged. */
async function listRaw(port: McpClientPort, config: ProxyConfig): Promise<ProxiedTool[]> {
  const raw = await listMcpTools(port, {
    signal: new AbortController().signal,
    timeout: maxTimeout(config) + DEFAULT_PROXY_REQUEST_TIMEOUT_MARGIN_MS,
    maxPages: DEFAULT_MCP_MAX_LIST_PAGES,
  });
  return raw.filter(
    (tool): tool is ProxiedTool =>
      typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string',
  );
}

function sessionIdOf(options: McpProxyServeOptions): string {
  const { sessionId } = options;
  if (sessionId === undefined) return randomUUID();
  if (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > MAX_SESSION_ID_CHARS) {
    throw new InvalidOptionsError({
      option: 'sessionId',
      message: `must be a non-empty string of at most ${MAX_SESSION_ID_CHARS} characters, got ${describeOptionValue(sessionId)}`,
    });
  }
  return sessionId;
}

function maxTimeout(config: ProxyConfig): number {
  return Math.max(config.timeouts.defaultMs, ...Object.values(config.timeouts.tools));
}
