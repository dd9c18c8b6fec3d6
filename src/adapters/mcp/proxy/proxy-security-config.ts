/**
 * The proxy's config of what it checks on the wire beyond the chain: secrets both ways, pinned tool
 * definitions, rate limits over time (docs/mcp.md, "Secrets, pins and rate limits").
 */

/** What a secret found in one direction does: refuse the call, replace it with a marker, or only write the audit. */
export type SecretAction = 'block' | 'redact' | 'audit' | 'off';

/** `secrets`: the proxy-wide actions, for the arguments the model sends and the results it reads, and per tool. */
export interface SecretsConfig {
  readonly arguments: SecretAction;
  readonly results: SecretAction;
  /** By tool name or `*` pattern, what differs: an exact name wins over patterns, then the first pattern in the file. */
  readonly tools: Readonly<
    Record<string, { readonly arguments?: SecretAction; readonly results?: SecretAction }>
  >;
}

/** The secret actions of one tool (or of every tool). */
export type SecretActions = Pick<SecretsConfig, 'arguments' | 'results'>;

/** `pins`: what a changed tool definition gets until approved, and the approved digests by tool. */
export interface PinsConfig {
  /** `refuse`: hidden and its calls refused; `flag`: listed and called as it is, each change audited. */
  readonly onChange: 'refuse' | 'flag';
  /** The client's tool name to the digests (`sha256:…`) its definition is approved at. */
  readonly approve: Readonly<Record<string, readonly string[]>>;
}

/**
 * `rateLimits`: each client's calls to all tools, and calls to one tool (a name or a `*` pattern), per
 * minute and per hour (either or both); a tool's counted for each client apart (`client`) or for all
 * clients together (`proxy`).
 */
export interface RateLimitsConfig {
  readonly perClient:
    | { readonly perMinute: number | undefined; readonly perHour: number | undefined }
    | undefined;
  readonly tools: Readonly<
    Record<
      string,
      {
        readonly perMinute: number | undefined;
        readonly perHour: number | undefined;
        readonly per: 'client' | 'proxy';
      }
    >
  >;
}

/** A time-window limit: calls per minute and per hour. */
export type RateWindowLimits = NonNullable<RateLimitsConfig['perClient']>;
/** One tool's rate limit. */
export type ToolRateLimit = RateLimitsConfig['tools'][string];
