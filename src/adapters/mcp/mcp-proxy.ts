import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonSchema } from '../../core/json-schema.js';
import type { McpToolAnnotations } from '../../formats/mcp-tool.js';
import type { ProxyConfig } from './proxy/proxy-config-types.js';

/** `createMcpProxy`'s options: the config, the upstream to spawn, where its log lines go. */
export interface McpProxyOptions {
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
   * a session whose client cannot confirm (no elicitation) while some tools need it, and the first call of
   * each tool refused for that, with the config keys that change it.
   */
  readonly onLog?: (line: string) => void;
  /** The name and version the proxy gives its clients. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
}

/** A running proxy: the upstream connected, serving one client session per `serve`. */
export interface McpProxy {
  /**
   * Serves one client session on a transport (stdio for the CLI, an in-memory pair in tests): its own
   * limits, loop guard and idempotency scope.
   */
  serve(
    transport: Transport,
    options?: {
      /**
       * The session's id (1 to 200 characters): the scope of its idempotency records and the `sessionId` of
       * its audit records. Default: a new random one, so nothing of an earlier session applies. Give a stable
       * one (the conversation's) for a write repeated after a reconnect or a restart to be replayed from a
       * durable store (SQLite, Redis).
       */
      readonly sessionId?: string;
    },
  ): Promise<{
    /** The session's id: the scope of its limits, and of its idempotency records unless the config sets one. */
    readonly sessionId: string;
    /** The upstream's list changed: the session's policy learns the new tools and the client is told. */
    toolsChanged(tools: McpProxy['tools']): void;
    /** Closes the session's connection (the proxy and its upstream stay). */
    close(): Promise<void>;
  }>;
  /**
   * The upstream's tools as the clients see them (after `allow` and `deny`): each the upstream's own
   * object, typed by what the proxy reads of it (either SDK line's `Tool` satisfies it).
   */
  readonly tools: readonly {
    readonly name: string;
    readonly annotations?: McpToolAnnotations | undefined;
    /** The JSON Schema of the tool's `structuredContent`. */
    readonly outputSchema?: JsonSchema | undefined;
  }[];
  /** Resolves when the upstream's connection closed (the server exited, or `close`). */
  readonly upstreamClosed: Promise<void>;
  /** Writes the audit records buffered so far (the log is written in batches). */
  flushAudit(): Promise<void>;
  /** Closes every session, the upstream (its process ends), the audit log and the store. */
  close(): Promise<void>;
}

/** `startMcpProxy`'s options: the proxy's, and the transport of its one client session. */
export interface StartMcpProxyOptions extends McpProxyOptions {
  /** The transport of the proxy's one client session (stdio for the CLI). */
  readonly transport: Transport;
}

/** The server the proxy fronts. */
export type McpProxyUpstream = McpProxyOptions['upstream'];

/** One session's options. */
export type McpProxyServeOptions = NonNullable<Parameters<McpProxy['serve']>[1]>;

/** One client session of the proxy. */
export type McpProxySession = Awaited<ReturnType<McpProxy['serve']>>;
