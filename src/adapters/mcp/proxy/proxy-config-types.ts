import type { JsonSchema } from '../../../core/json-schema.js';
import type { GuardOptions } from '../../../guard/guard-options.js';
import type { PinsConfig, RateLimitsConfig, SecretsConfig } from './proxy-security-config.js';

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
      | {
          readonly kind: 'redis';
          readonly url: string;
          /** Put before every key: several proxies (or tests) on one Redis keep apart. */
          readonly keyPrefix?: string;
        };
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
    /**
     * The headers sent to a remote upstream (`--url`), by header name: a fixed value, or one read from the
     * proxy's environment when it starts (a token).
     */
    readonly headers: Readonly<
      Record<
        string,
        | { readonly kind: 'value'; readonly value: string }
        | { readonly kind: 'env'; readonly name: string; readonly prefix: string }
        /** The client's own header of that name (lowercase): the server is connected per client session. */
        | { readonly kind: 'client'; readonly name: string }
      >
    >;
  };
  /**
   * Several upstreams behind one endpoint, by namespace (empty: none, the server comes from the command
   * line). Their tools reach the client as `<namespace><namespaceSeparator><tool>`.
   */
  readonly servers: Readonly<
    Record<
      string,
      | {
          readonly kind: 'stdio';
          readonly command: string;
          readonly args: readonly string[];
          readonly cwd: string | undefined;
          readonly env: ProxyConfig['upstream']['env'];
          /** Start it again (with a growing delay) after it exits. */
          readonly reconnect: boolean;
        }
      | {
          readonly kind: 'http';
          readonly url: string;
          readonly headers: ProxyConfig['upstream']['headers'];
          /** Connect again (with a growing delay) after it cannot be reached. */
          readonly reconnect: boolean;
        }
    >
  >;
  readonly namespaceSeparator: '.' | '_' | '__';
  /**
   * Who may use the HTTP front (`--listen`): nobody is asked (`"none"`, loopback only), or each client by
   * its bearer key; undefined when the config says nothing (the CLI then refuses to listen).
   */
  readonly auth:
    | { readonly kind: 'none' }
    | {
        readonly kind: 'keys';
        /** Client id to where its key is: an environment variable, or the key's SHA-256 (hex). */
        readonly clients: Readonly<
          Record<
            string,
            | { readonly kind: 'env'; readonly name: string }
            | { readonly kind: 'sha256'; readonly hash: string }
          >
        >;
        /** A file of `<client id> <sha256 hex>` lines, read when the proxy starts. */
        readonly keysFile: string | undefined;
      }
    | undefined;
  /** Secrets in the arguments the model sends and in the results it reads, or false: not looked for. */
  readonly secrets: SecretsConfig | false;
  /** Tool definitions pinned at their server's first `tools/list` (per server, in the store), or false. */
  readonly pins: PinsConfig | false;
  /** Calls per minute and per hour, per client and per tool, counted in the store. */
  readonly rateLimits: RateLimitsConfig;
}

/** A header's value: fixed, or read from the proxy's environment when the proxy starts (a token). */
export type HeaderValue = ProxyConfig['upstream']['headers'][string];
/** One upstream of `servers`: spawned over stdio, or remote over Streamable HTTP. */
export type UpstreamServer = ProxyConfig['servers'][string];
/** Who may use the HTTP front. */
export type ProxyAuthConfig = NonNullable<ProxyConfig['auth']>;
/** Where one client's key is: an environment variable holding it, or its SHA-256 in hex. */
export type ClientKeySource = Extract<ProxyAuthConfig, { readonly kind: 'keys' }>['clients'][string];

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
