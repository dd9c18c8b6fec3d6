import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolRuntime } from '../../chain/runtime.js';
import {
  DEFAULT_MCP_MAX_LIST_PAGES,
  DEFAULT_PROXY_RECONNECT_INITIAL_MS,
  DEFAULT_PROXY_RECONNECT_MAX_MS,
  DEFAULT_PROXY_REQUEST_TIMEOUT_MARGIN_MS,
} from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { describeOptionValue } from '../../options/check-option.js';
import { defaultSchemaCompiler } from '../../schema/schema-compiler.js';
import { type McpTools, mcpToolsOf } from './from-mcp-client.js';
import { listMcpTools } from './list-mcp-tools.js';
import type { McpClientPort } from './mcp-client-port.js';
import type { McpProxy, McpProxyServeOptions } from './mcp-proxy.js';
import { cannotConfirmNotice, noElicitationNotice } from './proxy/confirm-notice.js';
import { filterTools } from './proxy/filter-tools.js';
import type { ProxiedTool } from './proxy/mcp-shapes.js';
import type { ProxyConfig } from './proxy/proxy-config.js';
import { createSessionPolicy } from './proxy/session-policy.js';
import { createSessionAudit } from './proxy-audit.js';
import { openProxyResources } from './proxy-resources.js';
import { type ServedSession, serveProxySession } from './proxy-session.js';
import { createProxySessionMemory } from './proxy-session-memory.js';
import { createProxySubscriptions, type ProxySubscriptions } from './proxy-subscriptions.js';
import { proxyRuntime, proxyToolSettings } from './proxy-tool-settings.js';
import { createUpstreamSet, type UpstreamSpec } from './upstream-set.js';

/** As `guardTools`' `sessionId`: longer ids are refused, not hashed, so an id stays readable in the audit. */
const MAX_SESSION_ID_CHARS = 200;

/**
 * Connects v1 `Client`s to the upstreams (spawned over stdio with an explicit environment, or remote over
 * Streamable HTTP) and guards their tools (`fromMcpClient`), one runtime for all of them. Each session gets
 * its own policy (limits, loop guard, idempotency scope): serve one with `proxy.serve(transport)` (stdio,
 * or one session of `serveMcpProxyHttp`). The SDK is imported when a proxy starts, so `toolwarden/mcp`
 * loads without it.
 */
export async function createMcpProxy(
  /** The config, the upstream, where its log lines go. */
  options: {
    /** What the proxy lets through and how (`parseProxyConfig` reads it from the config file). */
    readonly config: ProxyConfig;
    /**
     * The one server the proxy fronts, its tool names unchanged: spawned over stdio (`command`), or remote
     * over Streamable HTTP (`url`, sent the config's `upstream.headers`). Undefined: the config's `servers`,
     * each under its namespace.
     */
    readonly upstream?:
      | {
          readonly command: string;
          readonly args?: readonly string[];
          readonly cwd?: string;
          /** The environment the config's `upstream.env.pass` names are read from (default `process.env`). */
          readonly env?: Readonly<Record<string, string | undefined>>;
          /** The server's stderr: the proxy's own (default) or dropped. Never the proxy's stdout. */
          readonly stderr?: 'inherit' | 'ignore';
        }
      | { readonly url: string };
    /** The environment the config's variables (env `pass`, headers, client keys) are read from (default `process.env`). */
    readonly env?: Readonly<Record<string, string | undefined>>;
    /**
     * The proxy's log lines for its operator (the CLI writes them to stderr); default: dropped. Among them:
     * a session whose client cannot confirm (no elicitation) while some tools need it, and the first call
     * of each tool refused for that, with the config keys that change it; a server connected, lost, or
     * not reachable.
     */
    readonly onLog?: (line: string) => void;
    /** The name and version the proxy gives its clients. */
    readonly serverInfo?: { readonly name: string; readonly version: string };
  },
): Promise<McpProxy> {
  const { config } = options;
  const log = options.onLog ?? (() => {});
  const env = options.env ?? process.env;
  const requestTimeoutMs = maxTimeout(config) + DEFAULT_PROXY_REQUEST_TIMEOUT_MARGIN_MS;
  const sessions = new Set<ServedSession>();
  // Set once the upstreams exist; a notification before any session has nobody to go to.
  let subscriptions: ProxySubscriptions<ServedSession> | undefined;
  const set = createUpstreamSet({
    servers: upstreamSpecs(options.upstream, config),
    separator: config.namespaceSeparator,
    env: options.upstream !== undefined && 'env' in options.upstream ? (options.upstream.env ?? env) : env,
    list: { timeoutMs: requestTimeoutMs, maxPages: DEFAULT_MCP_MAX_LIST_PAGES },
    required: options.upstream !== undefined,
    log,
    onNotification: (notification) => {
      const uri = (notification.params as { uri?: unknown } | null | undefined)?.uri;
      const to =
        notification.method === 'notifications/resources/updated'
          ? typeof uri === 'string'
            ? (subscriptions?.subscribersOf(uri) ?? [])
            : []
          : sessions;
      for (const session of to) session.notify(notification);
    },
  });
  subscriptions = createProxySubscriptions(set.passthrough);
  const resources = await openProxyResources(config, (failure) =>
    log(`audit: ${failure.operation} failed, ${failure.lostRecords} record(s) lost`),
  );
  try {
    await set.start();
  } catch (error) {
    await set.close();
    await resources.close();
    throw error;
  }
  const upstreamClosed = set.ended;
  const port = set.port;
  const compiler = defaultSchemaCompiler();
  const upstream: Upstream = { tools: [], runtime: undefined as unknown as ToolRuntime, mcp: undefined };
  const rebuild = async () => {
    const mcp = upstream.mcp;
    if (mcp === undefined) return;
    const raw = await listRaw(port, config);
    upstream.tools = filterTools(raw, config).filter(
      (tool) => mcp.info(chainName(mcp, tool.name)) !== undefined,
    );
    upstream.runtime = proxyRuntime(mcp.tools, config, resources, (name) => chainName(mcp, name));
    for (const skipped of mcp.skipped)
      log(`upstream tool ${skipped.name ?? `#${skipped.index}`} left out: ${skipped.problem}`);
  };
  try {
    upstream.mcp = await mcpToolsOf(
      port,
      {
        trusted: config.trustAnnotations,
        requestTimeoutMs,
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
    await set.close();
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
      const shared = subscriptions as ProxySubscriptions<ServedSession>;
      const clientId = serveOptions.clientId;
      const server: Server = new Server(
        options.serverInfo ?? { name: 'toolwarden-mcp-proxy', version: '0' },
        {
          capabilities: {
            tools: { listChanged: true },
            prompts: { listChanged: true },
            resources: { subscribe: true, listChanged: true },
          },
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
          audit: createSessionAudit(resources.audit, sessionId, clientId),
          runtime: () => upstream.runtime,
          chainName: (name) => (upstream.mcp === undefined ? name : chainName(upstream.mcp, name)),
          onCannotConfirm,
          // A shared store keeps the guard's memory too, so instances serving one conversation act as one.
          ...(config.idempotentWrites.store.kind === 'memory'
            ? {}
            : {
                memory: createProxySessionMemory({
                  store: resources.store,
                  sessionId,
                  policy,
                  onError: (message) => log(`session ${sessionId}: ${message}`),
                }),
              }),
        },
        tools: () => upstream.tools,
        passthrough: set.passthrough,
        subscriptions: {
          subscribe: (uri, signal) => shared.subscribe(session, uri, signal),
          unsubscribe: (uri, signal) => shared.unsubscribe(session, uri, signal),
        },
        onNoElicitation,
        onClose: () => {
          sessions.delete(session);
          shared.drop(session);
        },
      });
      sessions.add(session);
      return session;
    },
    async close() {
      for (const session of [...sessions]) await session.close();
      upstream.mcp?.close();
      await set.close();
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

/** The upstreams to connect: the one given (names unchanged), or the config's `servers` by namespace. */
function upstreamSpecs(
  upstream: Parameters<typeof createMcpProxy>[0]['upstream'],
  config: ProxyConfig,
): UpstreamSpec[] {
  const reconnect = { initialMs: DEFAULT_PROXY_RECONNECT_INITIAL_MS, maxMs: DEFAULT_PROXY_RECONNECT_MAX_MS };
  if (upstream !== undefined) {
    if ('url' in upstream)
      return [
        {
          namespace: undefined,
          label: upstream.url,
          quietStart: true,
          target: { kind: 'http', url: upstream.url, headers: config.upstream.headers },
          reconnect,
        },
      ];
    return [
      {
        namespace: undefined,
        label: upstream.command,
        quietStart: true,
        // As before servers could be listed: the one spawned server's exit ends the proxy.
        reconnect: false,
        target: {
          kind: 'stdio',
          command: upstream.command,
          args: upstream.args ?? [],
          cwd: upstream.cwd,
          env: config.upstream.env,
          stderr: upstream.stderr ?? 'inherit',
        },
      },
    ];
  }
  const servers = Object.entries(config.servers);
  if (servers.length === 0)
    throw new InvalidOptionsError({
      option: 'upstream',
      message: 'names no server: give an upstream, or list servers in the config ("servers")',
    });
  return servers.map(([namespace, server]) => ({
    namespace,
    label: namespace,
    reconnect: server.reconnect ? reconnect : false,
    target:
      server.kind === 'stdio'
        ? {
            kind: 'stdio',
            command: server.command,
            args: server.args,
            cwd: server.cwd,
            env: server.env,
            stderr: 'inherit',
          }
        : { kind: 'http', url: server.url, headers: server.headers },
  }));
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
