import type { McpClientPort } from './mcp-client-port.js';
import { type NamespaceSeparator, namespaceToolNames } from './proxy/namespace-tools.js';
import {
  createUpstreamMember,
  notConnected,
  type UpstreamMember,
  type UpstreamMemberOptions,
} from './upstream-member.js';
import {
  createPassthrough,
  type PassthroughEntry,
  type UpstreamPassthrough,
} from './upstream-passthrough.js';

/** One upstream of a set: its namespace (undefined: its names unchanged, for a proxy of one server). */
export interface UpstreamSpec
  extends Omit<
    UpstreamMemberOptions,
    'onChange' | 'log' | 'list' | 'env' | 'onNotification' | 'onReconnected'
  > {
  readonly namespace: string | undefined;
}

/** Several upstreams as one MCP client port: their tools listed under their namespaces, each call routed. */
export interface UpstreamSet {
  /** `tools/list` (one page: every connected server's tools, namespaced) and `tools/call` (routed by name). */
  readonly port: McpClientPort;
  /** Their prompts and resources, passed through. */
  readonly passthrough: UpstreamPassthrough;
  /** Each server and its namespace (for a passthrough over this set and another). */
  readonly entries: readonly PassthroughEntry[];
  /**
   * Connects every server. With `required`, the first failure rejects (the proxy of one server does not
   * start without it); otherwise a server that cannot start is logged and left out, the others serve.
   */
  start(): Promise<void>;
  /** Resolves when every server is lost for good (none connected, none to reconnect), or on `close`. */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

interface Route {
  readonly member: UpstreamMember;
  readonly name: string;
}

/** `createUpstreamSet`'s options. */
export interface UpstreamSetOptions {
  readonly servers: readonly UpstreamSpec[];
  readonly separator: NamespaceSeparator;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly list: UpstreamMemberOptions['list'];
  readonly required: boolean;
  readonly log: (line: string) => void;
  /** A server's resource or prompt notification, to pass on to the clients. */
  readonly onNotification?: UpstreamMemberOptions['onNotification'];
  /** A server connected again after it was lost. */
  readonly onReconnected?: () => void;
}

/**
 * The upstreams behind one endpoint. The union of their tools is rebuilt whenever one changes (connected,
 * lost, its list changed) and `notifications/tools/list_changed` goes to the port's listeners, so a server
 * that drops takes its tools with it and the others stay.
 */
export function createUpstreamSet(options: UpstreamSetOptions): UpstreamSet {
  const listeners = new Set<() => void>();
  let tools: unknown[] = [];
  let routes = new Map<string, Route>();
  const entries: { readonly namespace: string | undefined; readonly member: UpstreamMember }[] = [];
  const rebuild = () => {
    const nextTools: unknown[] = [];
    const nextRoutes = new Map<string, Route>();
    for (const { namespace, member } of entries) {
      const named = member.tools.filter(hasName);
      const toClient =
        namespace === undefined
          ? new Map(named.map((tool) => [tool.name, tool.name]))
          : namespaceToolNames(
              namespace,
              options.separator,
              named.map((tool) => tool.name),
            ).toClient;
      for (const tool of named) {
        const client = toClient.get(tool.name);
        if (client === undefined || nextRoutes.has(client)) continue;
        nextRoutes.set(client, { member, name: tool.name });
        // The server's own definition, only renamed: schemas, annotations and `_meta` ride along.
        nextTools.push(client === tool.name ? tool : { ...tool, name: client });
      }
    }
    tools = nextTools;
    routes = nextRoutes;
    for (const listener of listeners) listener();
  };
  for (const spec of options.servers) {
    const member = createUpstreamMember({
      ...spec,
      env: options.env,
      list: options.list,
      log: options.log,
      onChange: rebuild,
      ...(options.onNotification === undefined ? {} : { onNotification: options.onNotification }),
      ...(options.onReconnected === undefined ? {} : { onReconnected: options.onReconnected }),
    });
    entries.push({ namespace: spec.namespace, member });
  }
  const port: McpClientPort = {
    listTools: async () => ({ tools }),
    callTool: async (name, args, requestOptions) => {
      const route = routes.get(name);
      const routed = route?.member.port;
      if (route === undefined || routed === undefined) throw notConnected(route?.member.label ?? name);
      return routed.callTool(route.name, args, requestOptions);
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    port,
    passthrough: createPassthrough(entries, options.separator),
    entries,
    async start() {
      await Promise.all(
        entries.map(({ member }) =>
          member.start().catch((error: unknown) => {
            if (options.required) throw error;
            const message =
              error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
            options.log(`server ${member.label}: could not start: ${message}`);
          }),
        ),
      );
    },
    ended: Promise.all(entries.map(({ member }) => member.ended)).then(() => {}),
    async close() {
      await Promise.all(entries.map(({ member }) => member.close()));
    },
  };
}

function hasName(tool: unknown): tool is { readonly name: string } {
  return typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string';
}
