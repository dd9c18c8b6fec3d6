/**
 * What a tool's call does to the world, and everything that follows from it: the one table the chain, the
 * loop guard, the stop text and every front door read (docs/effects.md explains each cell).
 *
 * - `read`: changes nothing. Retried after a transient failure; identical calls of one response share one
 *   execution; never answered from an idempotency record (a read's answer may have changed since).
 * - `write`: changes something, and running it twice would change it twice (a charge, a post). Never
 *   retried unless the tool says so; deduplicated by an idempotency record (true duplicates only).
 * - `idempotent-write`: changes something, and running it again with the same arguments changes nothing
 *   more (set a value, put a file). Safe to retry, so it is; no record is needed to run it once.
 * - `unknown`: nobody said. Treated the cautious way on every axis: never retried (it may have acted),
 *   never answered from a record (it may be a read whose answer changed), and taken by the loop guard as a
 *   call that may change the world, never as a read.
 */
export type ToolEffect = 'read' | 'write' | 'idempotent-write' | 'unknown';

export const TOOL_EFFECTS: readonly ToolEffect[] = Object.freeze([
  'read',
  'write',
  'idempotent-write',
  'unknown',
]);

export interface EffectRules {
  /** Retried after a transient failure when the tool sets no `retries` (the read default count). */
  readonly retriedByDefault: boolean;
  /** May be retried at all: a `retries` setting above 0 is refused where this is false. */
  readonly retryable: boolean;
  /** Deduplicated by an idempotency record unless the tool says `idempotency: false`. */
  readonly deduplicatedByDefault: boolean;
  /** May take an `idempotency` setting at all (an answer from a record is safe only for these). */
  readonly deduplicable: boolean;
  /** Runs one at a time with the other calls that may change something (`DEFAULT_WRITE_CONCURRENCY`). */
  readonly runsAlone: boolean;
  /** Identical calls of one response share one execution. */
  readonly sharesIdenticalCalls: boolean;
  /** May change the world: the loop guard does not judge it as a read, and a stop lists it when it ran. */
  readonly mayChangeWorld: boolean;
  /** A store outage refuses the call even under `onStoreFailure: 'open'` (its limits cannot be checked). */
  readonly closedOnStoreFailure: boolean;
}

const READ: EffectRules = Object.freeze({
  retriedByDefault: true,
  retryable: true,
  deduplicatedByDefault: false,
  deduplicable: false,
  runsAlone: false,
  sharesIdenticalCalls: true,
  mayChangeWorld: false,
  closedOnStoreFailure: false,
});

export const EFFECT_RULES: Readonly<Record<ToolEffect, EffectRules>> = Object.freeze({
  read: READ,
  write: Object.freeze({
    retriedByDefault: false,
    retryable: true,
    deduplicatedByDefault: true,
    deduplicable: true,
    runsAlone: true,
    sharesIdenticalCalls: false,
    mayChangeWorld: true,
    closedOnStoreFailure: true,
  }),
  'idempotent-write': Object.freeze({
    retriedByDefault: true,
    retryable: true,
    deduplicatedByDefault: false,
    deduplicable: false,
    runsAlone: true,
    sharesIdenticalCalls: false,
    mayChangeWorld: true,
    closedOnStoreFailure: true,
  }),
  unknown: Object.freeze({
    retriedByDefault: false,
    retryable: false,
    deduplicatedByDefault: false,
    deduplicable: false,
    runsAlone: true,
    sharesIdenticalCalls: false,
    mayChangeWorld: true,
    closedOnStoreFailure: true,
  }),
});

export function isToolEffect(value: unknown): value is ToolEffect {
  return typeof value === 'string' && Object.hasOwn(EFFECT_RULES, value);
}

/** The rules of an effect; an effect the table does not know (a hostile object) gets `unknown`'s. */
export function effectRules(effect: ToolEffect | undefined): EffectRules {
  return effect !== undefined && isToolEffect(effect) ? EFFECT_RULES[effect] : EFFECT_RULES.unknown;
}

/** Whether a call of this effect may change something (everything but a read, the unknown included). */
export function mayChangeWorld(effect: ToolEffect | undefined): boolean {
  return effectRules(effect).mayChangeWorld;
}

/** The effects as a sentence for error messages: 'read', 'write', 'idempotent-write' or 'unknown'. */
export const EFFECT_CHOICES = "'read', 'write', 'idempotent-write' or 'unknown'";
