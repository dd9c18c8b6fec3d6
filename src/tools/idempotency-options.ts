import { DEFAULT_IDEMPOTENCY_MODE, DEFAULT_IDEMPOTENCY_TTL_MS } from '../core/defaults.js';
import { numberOptionProblem } from '../options/check-option.js';
import { effectRules, type ToolEffect } from './tool-effect.js';

/** `defineTool({ idempotency })`: how a write tool's calls are deduplicated. */
export interface IdempotencyOptions<TArgs = unknown> {
  /**
   * The tool's own key: calls with the same key are one action (an order id, a request id the client
   * sent). Default: the canonical arguments, so the same call with the same arguments is one action. The
   * key is scoped like the default one (the session, else the turn), and stored only as its SHA-256.
   */
  readonly key?: (
    args: TArgs,
    /** What the key function is given besides the arguments. */
    context: {
      readonly toolName: string;
      /** The caller's session and turn ids, when it gave them. */
      readonly sessionId: string | undefined;
      readonly turnId: string | undefined;
      /** Caller data (a user, a tenant): never shown to the model. */
      readonly data: unknown;
    },
  ) => string;
  /**
   * How a write is kept from running twice (see `DEFAULT_IDEMPOTENCY_MODE` for what each promises). Default
   * `at-most-once`; `at-least-once` for a tool that sets `retries` above 0 (it said a failed attempt may
   * run again).
   */
  readonly mode?: 'at-least-once' | 'at-most-once';
  /** How long the record is kept, in milliseconds (default 24 hours). */
  readonly ttlMs?: number;
  /**
   * How long a started call may take before it is taken to be of a process that died, in milliseconds.
   * Default: the tool's timeout per attempt and the retry delays, plus a margin.
   */
  readonly leaseMs?: number;
}

/** How a write is kept from running twice. */
export type IdempotencyMode = NonNullable<IdempotencyOptions['mode']>;

/** What a tool's own key function is given besides the arguments. */
export type IdempotencyKeyContext = Parameters<NonNullable<IdempotencyOptions['key']>>[1];

/** The checked setting of a tool that deduplicates its calls. */
export interface IdempotencySettings {
  /** The tool's own key; undefined: the canonical arguments. */
  // biome-ignore lint/suspicious/noExplicitAny: a tool of any argument type keeps its key function.
  readonly key: NonNullable<IdempotencyOptions<any>['key']> | undefined;
  readonly mode: NonNullable<IdempotencyOptions['mode']>;
  /** How long a record is kept, in milliseconds. */
  readonly ttlMs: number;
  /** Undefined: computed per call from the policy (see `leaseFor`). */
  readonly leaseMs: number | undefined;
}

/**
 * The settings of a tool's `idempotency` option, or what is wrong with it. A write tool deduplicates its
 * calls unless it says `idempotency: false`; no other effect may (see tool-effect.ts): a read's answer may
 * have changed since the record, an idempotent write is safe to run again, and an unknown effect may be
 * either, so an object there is refused.
 */
export function resolveIdempotency(
  option: unknown,
  tool: { readonly effect: ToolEffect; readonly retries: unknown },
): { readonly settings: IdempotencySettings | undefined } | { readonly problem: string } {
  if (option === false) return { settings: undefined };
  const rules = effectRules(tool.effect);
  const retried = typeof tool.retries === 'number' && tool.retries > 0;
  if (option === undefined) {
    if (!rules.deduplicatedByDefault) return { settings: undefined };
    return { settings: retried ? RETRIED_DEFAULTS : DEFAULTS };
  }
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    return { problem: 'idempotency must be false or { key?, mode?, ttlMs?, leaseMs? }.' };
  }
  if (!rules.deduplicable) {
    return {
      problem: `idempotency applies to write tools only (effect 'write'); a tool of effect '${String(tool.effect)}' is never answered from a record.`,
    };
  }
  const { key, mode, ttlMs, leaseMs } = option as Record<string, unknown>;
  const unknown = Object.keys(option).filter((name) => !KNOWN.has(name));
  if (unknown.length > 0) return { problem: `idempotency has unknown options: ${unknown.join(', ')}.` };
  if (key !== undefined && typeof key !== 'function')
    return { problem: 'idempotency.key must be a function.' };
  if (mode !== undefined && mode !== 'at-least-once' && mode !== 'at-most-once') {
    return { problem: `idempotency.mode must be 'at-least-once' or 'at-most-once', got ${String(mode)}.` };
  }
  for (const [name, value] of [
    ['ttlMs', ttlMs],
    ['leaseMs', leaseMs],
  ] as const) {
    const problem = value === undefined ? undefined : numberOptionProblem(value, { option: name, min: 1 });
    if (problem !== undefined) return { problem: `idempotency.${name} ${problem}.` };
  }
  const resolvedMode = (mode ?? (retried ? 'at-least-once' : DEFAULT_IDEMPOTENCY_MODE)) as IdempotencyMode;
  if (resolvedMode === 'at-most-once' && retried) {
    return {
      problem:
        "an at-most-once tool is never retried (a failed attempt may have acted): remove retries or use mode 'at-least-once'.",
    };
  }
  return {
    settings: Object.freeze({
      key: key as IdempotencySettings['key'],
      mode: resolvedMode,
      ttlMs: (ttlMs as number | undefined) ?? DEFAULT_IDEMPOTENCY_TTL_MS,
      leaseMs: leaseMs as number | undefined,
    }),
  };
}

const KNOWN = new Set(['key', 'mode', 'ttlMs', 'leaseMs']);

const DEFAULTS: IdempotencySettings = Object.freeze({
  key: undefined,
  mode: DEFAULT_IDEMPOTENCY_MODE,
  ttlMs: DEFAULT_IDEMPOTENCY_TTL_MS,
  leaseMs: undefined,
});

/** A write tool that sets `retries` above 0 said a failed attempt may run again: at least once. */
const RETRIED_DEFAULTS: IdempotencySettings = Object.freeze({ ...DEFAULTS, mode: 'at-least-once' });
