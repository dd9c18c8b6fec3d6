import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditSink } from '../../audit/audit-sink.js';
import type { Store } from '../../core/store.js';
import type { GuardOptions } from '../../run/stop-conditions.js';
import type { GatewayTelemetry } from '../../telemetry/gateway-telemetry.js';
import type { ToolEffect } from '../../tools/tool-effect.js';

/** `createGateway`'s options: the provider, and how each turn is guarded (every key but `upstream` has a default). */
export interface GatewayOptions {
  /** The provider the gateway fronts, and the key it sends (the app's own by default). */
  readonly upstream: {
    /** The provider's base URL: `https://api.openai.com`, `http://127.0.0.1:11434` (a path prefix is kept). */
    readonly url: string | URL;
    /** The key the gateway sends in place of the app's; default: the app's own key passes through. Never logged. */
    readonly apiKey?: string;
    /** The header that carries `apiKey`: `authorization` (default, as `Bearer <key>`) or one taking the key as it is. */
    readonly apiKeyHeader?: string;
    /**
     * Anthropic Messages' provider (`https://api.anthropic.com`), when it is not `url`: `/v1/messages` and
     * Anthropic's other requests go there. Its `apiKeyHeader` defaults to `x-api-key` (the key as it is).
     */
    readonly anthropic?: {
      readonly url: string | URL;
      readonly apiKey?: string;
      readonly apiKeyHeader?: string;
    };
  };
  /** Per turn (from the last user message), as Spring AI 2.0.1 counts (defaults 40 per tool, 150 in all, 50 model calls). */
  readonly limits?: {
    readonly perTool?: number;
    readonly total?: number;
    /** Model calls in one turn: the answer of the last one is final. */
    readonly roundTrips?: number;
    readonly tools?: Readonly<Record<string, number>>;
  };
  /** The loop guard's thresholds, `nudge` and per-tool `hints` (as `loopGuard()`), or false to turn it off. */
  readonly loopGuard?: GuardOptions | false;
  /** What each tool does to the world, by name: an undescribed tool is `unknown` (never taken for a read). */
  readonly tools?: Readonly<Record<string, { readonly effect: ToolEffect }>>;
  /** Secrets removed from tool results before the provider reads them (default true), and from the model's arguments before the app sees them (default false). */
  readonly redact?: { readonly toolResults?: boolean; readonly arguments?: boolean };
  /** A stopped turn ends with the model's own answer with tools off (`final-answer`, default), or the gateway's message at once (`synthesize`). */
  readonly onStop?: 'final-answer' | 'synthesize';
  /** Where each session's record is kept (default: a `MemoryStore` of this gateway). A Redis store shares it across instances. */
  readonly store?: Store;
  /** Where the audit records go (runs, rounds, stops: what `toolwarden report` reads). */
  readonly audit?: AuditSink;
  /** Spans and metrics (`otelGatewayTelemetry()` from `toolwarden/otel`). */
  readonly telemetry?: GatewayTelemetry;
  /** The provider must start answering, and then send each next piece, within this (default 10 minutes); else 504. */
  readonly timeoutMs?: number;
  /** A guarded request's body, at most (default 32 MiB); over it: 413. */
  readonly maxRequestBytes?: number;
  /** A whole answer of the provider, and the calls of a streamed one held at once, at most (default 32 MiB). */
  readonly maxResponseBytes?: number;
  /** Lines for the operator (a store that failed, a record dropped): never a key, an argument or a result. */
  readonly onLog?: (line: string) => void;
  /** Milliseconds since the epoch (default `Date.now`): the audit's and the spans' times. */
  readonly now?: () => number;
}

/** A gateway: a request handler for a server of its own (`listen`) or one of yours. */
export interface Gateway {
  /** The request listener: `http.createServer(gateway.handler)`, or a route of an existing server. */
  readonly handler: (request: IncomingMessage, response: ServerResponse) => void;
  /** Starts a server of its own (default 127.0.0.1, port 8787; port 0 takes a free one); resolves with its base URL. */
  listen(options?: {
    readonly port?: number;
    readonly host?: string;
  }): Promise<{ readonly url: string; readonly port: number }>;
  /** Stops the server (when it listens), waits for the store writes under way, and closes the provider's connections. The store and the audit sink given stay open (they are the caller's). */
  close(): Promise<void>;
}
