import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  DEFAULT_MCP_MAX_LIST_PAGES,
  DEFAULT_PROXY_RECONNECT_INITIAL_MS,
  DEFAULT_PROXY_RECONNECT_MAX_MS,
} from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { describeOptionValue } from '../../options/check-option.js';
import { defaultSchemaCompiler } from '../../schema/schema-compiler.js';
import { takesClientHeaders, withClientHeaders } from './connect-upstream.js';
import { conversationCall } from './conversation-call.js';
import { type OpenUpstreams, openGuardedUpstreams, proxyRequestTimeout } from './guard-upstreams.js';
import type { McpProxy, McpProxyConversation, McpProxyServeOptions } from './mcp-proxy.js';
import { cannotConfirmNotice, noElicitationNotice } from './proxy/confirm-notice.js';
import type { ProxiedTool } from './proxy/mcp-shapes.js';
import type { ProxyConfig } from './proxy/proxy-config.js';
import { proxyScreen } from './proxy/proxy-screen-of.js';
import { createSessionPolicy } from './proxy/session-policy.js';
import { createSessionAudit } from './proxy-audit.js';
import type { ProxyCallContext } from './proxy-call.js';
import { openProxyResources } from './proxy-resources.js';
import { type ServedSession, serveProxySession } from './proxy-session.js';
import { createProxySessionMemory } from './proxy-session-memory.js';
import { createProxySubscriptions, type ProxySubscriptions } from './proxy-subscriptions.js';
import { createPassthrough } from './upstream-passthrough.js';
import type { UpstreamSetOptions, UpstreamSpec } from './upstream-set.js';

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
  const requestTimeoutMs = proxyRequestTimeout(config);
  const sessions = new Set<ServedSession>();
  const conversations = new Set<McpProxyConversation>();
  // Set once the upstreams exist; a notification before any session has nobody to go to.
  let subscriptions: ProxySubscriptions<ServedSession> | undefined;
  const specs = upstreamSpecs(options.upstream, config);
  // A server sent the client's own headers is connected per client session (see `serve`), not here.
  const perClient = specs.filter((spec) => takesClientHeaders(spec.target));
  const setOptions = (servers: readonly UpstreamSpec[], required: boolean): UpstreamSetOptions => ({
    servers,
    separator: config.namespaceSeparator,
    env: options.upstream !== undefined && 'env' in options.upstream ? (options.upstream.env ?? env) : env,
    list: { timeoutMs: requestTimeoutMs, maxPages: DEFAULT_MCP_MAX_LIST_PAGES },
    required,
    log,
  });
  const resources = await openProxyResources(config, (failure) =>
    log(`audit: ${failure.operation} failed, ${failure.lostRecords} record(s) lost`),
  );
  const compiler = defaultSchemaCompiler();
  const screen = proxyScreen(config, resources, options.upstream, log);
  const pins = screen.pins;
  const guard = {
    config,
    resources,
    compiler,
    log,
    ...(pins === undefined ? {} : { review: (tools: ProxiedTool[]) => pins.review(tools) }),
  };
  const sharedSpecs = specs.filter((spec) => !takesClientHeaders(spec.target));
  let upstream: OpenUpstreams;
  try {
    upstream = await openGuardedUpstreams(
      {
        ...setOptions(sharedSpecs, options.upstream !== undefined),
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
        onReconnected: () => subscriptions?.resubscribe(),
      },
      {
        ...guard,
        onChanged: () => {
          for (const session of sessions) session.toolsChanged([]);
          for (const conversation of conversations) conversation.toolsChanged();
        },
      },
    );
  } catch (error) {
    await resources.close();
    throw error;
  }
  subscriptions = createProxySubscriptions(upstream.set.passthrough);
  const shared = upstream.guarded;
  // Servers connected per client session only: the proxy stays up until it is closed.
  let markClosed = () => {};
  const upstreamClosed =
    sharedSpecs.length > 0
      ? upstream.set.ended
      : new Promise<void>((resolve) => {
          markClosed = resolve;
        });
  // Each tool refused for want of elicitation is said once per proxy (only the upstream's tools: bounded).
  const toldCannotConfirm = new Set<string>();
  const onCannotConfirm = (name: string) => {
    const tool = shared.tools.find((listed) => listed.name === name);
    if (tool === undefined || toldCannotConfirm.has(name)) return;
    toldCannotConfirm.add(name);
    log(cannotConfirmNotice(name, tool, config));
  };
  const onNoElicitation = () => {
    const line = noElicitationNotice(shared.tools, config);
    if (line !== undefined) log(line);
  };
  /** What a session or a conversation of one client is served with: its servers, policy and context. */
  const open = async (
    serveOptions: McpProxyServeOptions,
    on: {
      readonly onChanged: () => void;
      readonly onNotification: (notification: { readonly method: string; readonly params: unknown }) => void;
    },
  ) => {
    const sessionId = sessionIdOf(serveOptions);
    const clientId = serveOptions.clientId;
    // The servers of this session alone, sent its client's headers (never logged, never audited).
    const own =
      perClient.length === 0
        ? undefined
        : await openGuardedUpstreams(
            {
              ...setOptions(
                perClient.map((spec) => ({
                  ...spec,
                  quietStart: true,
                  target: withClientHeaders(spec.target, serveOptions.clientHeaders ?? {}),
                })),
                false,
              ),
              log: (line) => log(`session ${sessionId}: ${line}`),
              onNotification: (notification) => {
                if (notification.method !== 'notifications/resources/updated')
                  on.onNotification(notification);
              },
            },
            { ...guard, onChanged: on.onChanged },
          );
    const tools = () => (own === undefined ? shared.tools : [...shared.tools, ...own.guarded.tools]);
    const ownOf = (name: string) =>
      own?.guarded.tools.some((tool) => tool.name === name) ? own.guarded : shared;
    const policy = createSessionPolicy({ config, tools: tools() });
    const context: Omit<ProxyCallContext, 'confirm'> = {
      config,
      policy,
      sessionId,
      idempotencyScope: config.idempotentWrites.scope ?? sessionId,
      audit: createSessionAudit(resources.audit, sessionId, clientId),
      runtime: (name) => ownOf(name).runtime,
      chainName: (name) => ownOf(name).chainName(name),
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
      screen: screen.screen,
      ...(clientId === undefined ? {} : { clientId }),
    };
    return {
      context,
      tools,
      passthrough:
        own === undefined
          ? upstream.set.passthrough
          : createPassthrough([...upstream.set.entries, ...own.set.entries], config.namespaceSeparator),
      close: async () => {
        await own?.close();
      },
    };
  };
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const types = await import('@modelcontextprotocol/sdk/types.js');
  return {
    get tools() {
      return shared.tools;
    },
    upstreamClosed,
    flushAudit: async () => {
      await resources.audit?.flush();
    },
    async serve(transport, serveOptions = {}) {
      const subscribed = subscriptions as ProxySubscriptions<ServedSession>;
      // Set once served: a server's notification before then has nobody to go to.
      let session: ServedSession | undefined;
      const opened = await open(serveOptions, {
        onChanged: () => session?.toolsChanged([]),
        onNotification: (notification) => session?.notify(notification),
      });
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
      const served = await serveProxySession({
        server,
        transport,
        types,
        context: opened.context,
        tools: opened.tools,
        passthrough: opened.passthrough,
        subscriptions: {
          subscribe: (uri, signal) => subscribed.subscribe(session as ServedSession, uri, signal),
          unsubscribe: (uri, signal) => subscribed.unsubscribe(session as ServedSession, uri, signal),
        },
        onNoElicitation,
        onClose: () => {
          if (session !== undefined) {
            sessions.delete(session);
            subscribed.drop(session);
          }
          void opened.close();
        },
      });
      // The session's list is always its own union: whoever says a list changed.
      const ready: ServedSession = { ...served, toolsChanged: () => served.toolsChanged(opened.tools()) };
      session = ready;
      sessions.add(ready);
      return ready;
    },
    async converse(serveOptions = {}) {
      let conversation: McpProxyConversation | undefined;
      const opened = await open(serveOptions, {
        onChanged: () => conversation?.toolsChanged(),
        // No transport session, so no stream to send a server's notification on.
        onNotification: () => {},
      });
      let closed = false;
      conversation = {
        sessionId: opened.context.sessionId,
        tools: opened.tools,
        toolsChanged: () => opened.context.policy.setTools(opened.tools()),
        call: (name, args, callOptions) => conversationCall(opened.context, types, name, args, callOptions),
        async close() {
          if (closed) return;
          closed = true;
          if (conversation !== undefined) conversations.delete(conversation);
          await opened.close();
        },
      };
      conversations.add(conversation);
      return conversation;
    },
    async close() {
      for (const session of [...sessions]) await session.close();
      for (const conversation of [...conversations]) await conversation.close();
      await upstream.close();
      await resources.close();
      markClosed();
    },
  };
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
