/**
 * The proxy's config of what it checks on the wire beyond the chain: secrets both ways, pinned tool
 * definitions, rate limits over time (docs/mcp.md, "Secrets, pins and rate limits").
 */

/** What a secret found in one direction does: refuse the call, replace it with a marker, or only write the audit. */
export type SecretAction = 'block' | 'redact' | 'audit' | 'off';

/** The secret actions of one tool (or of every tool): for the arguments the model sends, for the results it reads. */
export interface SecretActions {
  readonly arguments: SecretAction;
  readonly results: SecretAction;
}

/** `secrets`: the proxy-wide actions, and per tool (a name or a `*` pattern) what differs from them. */
export interface SecretsConfig extends SecretActions {
  /** By tool name or pattern: an exact name wins over patterns, then the first pattern in the file. */
  readonly tools: Readonly<Record<string, Partial<SecretActions>>>;
}

/** `pins`: what a changed tool definition gets until approved, and the approved digests by tool. */
export interface PinsConfig {
  /** `refuse`: hidden and its calls refused; `flag`: listed and called as it is, each change audited. */
  readonly onChange: 'refuse' | 'flag';
  /** The client's tool name to the digests (`sha256:…`) its definition is approved at. */
  readonly approve: Readonly<Record<string, readonly string[]>>;
}

/** A time-window limit: calls per minute and per hour (either or both). */
export interface RateWindowLimits {
  readonly perMinute: number | undefined;
  readonly perHour: number | undefined;
}

/** One tool's rate limit, counted for each client apart (`client`) or for all clients together (`proxy`). */
export interface ToolRateLimit extends RateWindowLimits {
  readonly per: 'client' | 'proxy';
}

/** `rateLimits`: each client's calls to all tools, and calls to one tool (a name or a `*` pattern). */
export interface RateLimitsConfig {
  readonly perClient: RateWindowLimits | undefined;
  readonly tools: Readonly<Record<string, ToolRateLimit>>;
}
