import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonSchema } from '../../core/json-schema.js';
import type { McpToolAnnotations } from '../../formats/mcp-tool.js';

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
      /** Who the client is (its key's id, for the HTTP front): written as `clientId` in each of its audit records. */
      readonly clientId?: string;
      /**
       * The client's request headers, by lowercase name (the HTTP front: its `initialize` request's, the
       * proxy's own key left out): what a server's `{ "fromClient": … }` headers are read from. Never
       * logged or audited.
       */
      readonly clientHeaders?: Readonly<Record<string, string | undefined>>;
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
   * Opens one conversation served without a transport session (the stateless `2026-07-28` protocol of
   * `serveMcpProxyHttp`): the options, policy, limits, loop guard and idempotency scope of `serve`'s
   * sessions, each call made on its own.
   */
  converse(options?: Parameters<McpProxy['serve']>[1]): Promise<McpProxyConversation>;
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

/** One session's options. */
export type McpProxyServeOptions = NonNullable<Parameters<McpProxy['serve']>[1]>;

/** One client session of the proxy. */
export type McpProxySession = Awaited<ReturnType<McpProxy['serve']>>;

/**
 * One conversation of the proxy served without a transport session: each `tools/call` through the same
 * policy as a session's, a confirmation asked by the client's retried request instead of an elicitation.
 */
export interface McpProxyConversation {
  /** The conversation's id: the scope of its limits, guard memory and idempotency records. */
  readonly sessionId: string;
  /** The tools the conversation lists now. */
  tools(): McpProxy['tools'];
  /** The upstream's list changed: the conversation's policy learns the new tools. */
  toolsChanged(): void;
  /**
   * One `tools/call`. `answer` gives the user's answer to a confirmation the request carries, or
   * `ask` when it carries none: the call then stops before anything runs and is answered `ask`.
   */
  call(
    name: string,
    args: unknown,
    options: {
      readonly signal: AbortSignal;
      readonly answer: (message: string) => 'accept' | 'decline' | 'cancel' | 'unavailable' | 'ask';
    },
  ): Promise<McpConversationCall>;
  /** Closes the conversation's own servers (those sent its client's headers). */
  close(): Promise<void>;
}

/** What one call of a conversation gave: the client's result, or a confirmation to ask first. */
export type McpConversationCall =
  | {
      readonly kind: 'result';
      readonly result: {
        readonly content: readonly { readonly type: string }[];
        readonly isError?: boolean | undefined;
        readonly _meta?: Readonly<Record<string, unknown>> | undefined;
      };
    }
  | { readonly kind: 'ask'; readonly message: string };
