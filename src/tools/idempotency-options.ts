import { DEFAULT_IDEMPOTENCY_MODE, DEFAULT_IDEMPOTENCY_TTL_MS } from '../core/defaults.js';
import { numberOptionProblem } from '../options/check-option.js';
import type { AnyTool, ToolDefinition } from './tool-definition.js';
import { effectRules, type ToolEffect } from './tool-effect.js';

/** `defineTool({ idempotency })`: how a write tool's calls are deduplicated. */
export type IdempotencyOptions<TArgs = unknown> = Exclude<
  ToolDefinition<TArgs, unknown>['idempotency'],
  false | undefined
>;

/** How a write is kept from running twice. */
export type IdempotencyMode = NonNullable<IdempotencyOptions['mode']>;

/** What a tool's own key function is given besides the arguments. */
export type IdempotencyKeyContext = Parameters<NonNullable<IdempotencyOptions['key']>>[1];

/** The checked setting of a tool that deduplicates its calls. */
export type IdempotencySettings = NonNullable<AnyTool['idempotency']>;

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
