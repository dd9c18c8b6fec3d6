import type { JsonSchema } from '../../../core/json-schema.js';
import type { GuardOptions } from '../../../guard/guard-options.js';

/**
 * `toolwarden mcp-proxy`'s config file (`toolwarden.json`), resolved: every default filled in. Everything
 * is per client session (one connection of one client) unless it says otherwise. docs/mcp.md ("mcp-proxy config")
 * documents each key.
 */
export interface ProxyConfig {
  /** Calls allowed per client session: per tool (`tools` overrides `perTool` for one tool) and in total. */
  readonly limits: {
    readonly perTool: number;
    readonly total: number;
    readonly tools: Readonly<Record<string, number>>;
  };
  /** The loop guard over the session's calls (one call is one round), every threshold resolved, or false. */
  readonly loopGuard: Required<GuardOptions> | false;
  /** Per-call timeout of the upstream's `tools/call`, in ms: `tools` overrides `defaultMs` for one tool. */
  readonly timeouts: { readonly defaultMs: number; readonly tools: Readonly<Record<string, number>> };
  /** What a tool's `structuredContent` is checked against (`tools` overrides `default` for one tool). */
  readonly outputContracts: {
    /** `from-server`: the `outputSchema` the server lists for the tool (none: unchecked); `none`: unchecked. */
    readonly default: 'from-server' | 'none';
    /** Per tool: a mode, or a JSON Schema of the operator's own for the tool's `structuredContent`. */
    readonly tools: Readonly<
      Record<
        string,
        { readonly kind: 'from-server' | 'none' } | { readonly kind: 'schema'; readonly schema: JsonSchema }
      >
    >;
  };
  /** Redact the text of upstream error results (and JSON-RPC errors) before the client sees it. */
  readonly redactErrors: boolean;
  /** Write tools whose repeated call (same arguments, same session) is run once and its result replayed. */
  readonly idempotentWrites: {
    readonly tools: readonly string[];
    /** Where idempotency records and the counts of `limits` are kept. */
    readonly store:
      | { readonly kind: 'memory' }
      | { readonly kind: 'sqlite'; readonly path: string }
      | { readonly kind: 'redis'; readonly url: string };
    readonly ttlMs: number;
    /**
     * Whose records a repeated write is matched against: undefined, each client session's own (a new
     * connection starts with none); a fixed name, every session of every proxy with this scope, so with a
     * SQLite or Redis store a write is not run again after the proxy restarts.
     */
    readonly scope: string | undefined;
  };
  /** Tools that need the user's confirmation before they run, or false. */
  readonly confirm:
    | {
        /** The tools to confirm: by name, or `destructive` (see `isDestructive`). */
        readonly tools: readonly string[] | 'destructive';
        /** A client without elicitation cannot be asked: refuse the call, or run it and write an audit record. */
        readonly ifNoElicitation: 'deny' | 'allow-and-audit';
      }
    | false;
  /** Tool names or `*` patterns the client may see and call; undefined: every tool not denied. */
  readonly allow: readonly string[] | undefined;
  /** Tool names or `*` patterns hidden from the client and refused (deny wins over allow). */
  readonly deny: readonly string[];
  /** Where the audit log is written, or false. */
  readonly audit:
    | { readonly kind: 'jsonl'; readonly path: string }
    | { readonly kind: 'sqlite'; readonly path: string }
    | false;
  readonly telemetry: boolean;
  /** Believe the upstream's annotations when they ask for less caution (`readOnlyHint`, `destructiveHint: false`). */
  readonly trustAnnotations: boolean;
  readonly upstream: {
    /**
     * The upstream's environment, explicit: the variables of the proxy's own environment passed on by name,
     * and fixed values (which win). The MCP SDK's stdio transport adds its own few (`HOME`, `PATH`, …) always.
     */
    readonly env: { readonly pass: readonly string[]; readonly set: Readonly<Record<string, string>> };
  };
}

/** `from-server`: the `outputSchema` the server lists for the tool (none: unchecked); `none`: unchecked. */
export type OutputContractMode = ProxyConfig['outputContracts']['default'];
/** A mode, or a JSON Schema of the operator's own for the tool's `structuredContent`. */
export type OutputContract = ProxyConfig['outputContracts']['tools'][string];
/** Where idempotency records and the counts of `limits` are kept. */
export type StoreConfig = ProxyConfig['idempotentWrites']['store'];
/** Where the audit log is written. */
export type AuditConfig = Exclude<ProxyConfig['audit'], false>;
/** Which tools need the user's yes, and what happens when the client cannot be asked. */
export type ConfirmConfig = Exclude<ProxyConfig['confirm'], false>;
/** The upstream's environment: variables passed on by name, and fixed values. */
export type UpstreamEnv = ProxyConfig['upstream']['env'];
