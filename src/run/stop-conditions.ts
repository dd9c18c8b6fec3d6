import {
  DEFAULT_GUARD_WINDOW_ROUNDS,
  DEFAULT_MAX_CYCLE_PERIOD,
  DEFAULT_MAX_ROUND_TRIPS,
  DEFAULT_NO_PROGRESS_ROUNDS,
  DEFAULT_NUDGE,
  DEFAULT_REPEAT_LIMIT,
  DEFAULT_SAME_RESULT_LIMIT,
  DEFAULT_TRANSIENT_REPEAT_LIMIT,
} from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import type { LoopUsage, StopEvidence, StopReason } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { GuardOptions } from '../guard/guard-options.js';
import { checkFunction, checkNumberOption, requireNumberOption } from '../options/check-option.js';
import { type LoopHints, loopHintsProblem } from '../tools/loop-hints.js';

/** What a stop condition sees before each model call: `stopIf`'s `check` takes it. */
export type StopContext = Parameters<Extract<StopCondition, { type: 'custom' }>['check']>[0];

export type { GuardOptions } from '../guard/guard-options.js';

/** The guard's options, checked, with the defaults applied. */
export type ResolvedGuard = Required<GuardOptions>;

/**
 * When a run stops, as values: compose them in `stopWhen: [maxRoundTrips(20), tokenBudget(50_000),
 * loopGuard({ repeatLimit: 3 })]`. The ceilings are checked before every model call, the loop guard after
 * every round; each stop keeps its evidence.
 */
export type StopCondition =
  | { readonly type: 'max-round-trips'; readonly max: number }
  | { readonly type: 'token-budget'; readonly max: number }
  | { readonly type: 'time-budget'; readonly maxMs: number }
  | { readonly type: 'cost-budget'; readonly cost: (usage: LoopUsage) => number; readonly max: number }
  | { readonly type: 'loop-guard'; readonly options: GuardOptions }
  | {
      readonly type: 'custom';
      readonly name: string;
      /** Truthy stops the run; a value other than `true` is kept as the evidence's `detail`. */
      readonly check: (context: {
        /** Model calls so far. */
        readonly roundTrips: number;
        readonly usage: LoopUsage;
        readonly elapsedMs: number;
        readonly messages: readonly Message[];
      }) => unknown;
    };

/** At most `max` model calls in the run (the last answer after a stop is not counted against it). */
export function maxRoundTrips(max: number): StopCondition {
  return { type: 'max-round-trips', max: requireNumberOption(max, { option: 'maxRoundTrips', min: 1 }) };
}

/** At most `max` input + output tokens. */
export function tokenBudget(max: number): StopCondition {
  return { type: 'token-budget', max: requireNumberOption(max, { option: 'tokenBudget', min: 1 }) };
}

/** At most `maxMs` of wall-clock time: the model's and the tools' signals abort at it. */
export function timeBudget(maxMs: number): StopCondition {
  return {
    type: 'time-budget',
    maxMs: requireNumberOption(maxMs, { option: 'timeBudgetMs', min: 1, timer: true }),
  };
}

/** At most `max` of whatever `cost(usage)` measures. */
export function costBudget(cost: (usage: LoopUsage) => number, max: number): StopCondition {
  checkFunction(cost, { option: 'cost' });
  if (cost === undefined)
    throw new InvalidOptionsError({ option: 'cost', message: 'is required (a function of the usage)' });
  const limit = requireNumberOption(max, {
    option: 'costBudget',
    min: 0,
    minExclusive: true,
    integer: false,
  });
  return { type: 'cost-budget', cost, max: limit };
}

/** The semantic loop guard with these thresholds (the defaults otherwise). */
export function loopGuard(options: GuardOptions = {}): StopCondition {
  resolveGuard(options);
  return { type: 'loop-guard', options };
}

/** Your own condition, checked before every model call. */
export function stopIf(
  name: string,
  check: Extract<StopCondition, { type: 'custom' }>['check'],
): StopCondition {
  if (typeof name !== 'string' || name === '' || name.length > 200) {
    throw new InvalidOptionsError({
      option: 'stopIf.name',
      message: 'must be a non-empty string of at most 200 characters',
    });
  }
  if (typeof check !== 'function') {
    throw new InvalidOptionsError({ option: 'stopIf.check', message: 'must be a function' });
  }
  return { type: 'custom', name, check };
}

/** The stop conditions of one run, merged: the smallest of each ceiling wins. */
export interface ResolvedStops {
  readonly maxRoundTrips: number;
  readonly tokenBudget: number;
  readonly timeBudgetMs: number;
  readonly costs: readonly { readonly cost: (usage: LoopUsage) => number; readonly max: number }[];
  readonly custom: readonly { readonly name: string; readonly check: (context: StopContext) => unknown }[];
  readonly guard: ResolvedGuard | undefined;
}

/**
 * Merges the conditions. A run always has a round-trip ceiling (the default when none is given) and the
 * loop guard unless `guard: false`.
 */
export function resolveStops(conditions: readonly StopCondition[], guardOff: boolean): ResolvedStops {
  let maxRounds = Number.POSITIVE_INFINITY;
  let tokens = Number.POSITIVE_INFINITY;
  let time = Number.POSITIVE_INFINITY;
  const costs: Array<{ cost: (usage: LoopUsage) => number; max: number }> = [];
  const custom: Array<{ name: string; check: (context: StopContext) => unknown }> = [];
  let guard: GuardOptions | undefined;
  for (const [index, given] of conditions.entries()) {
    const condition: StopCondition | undefined =
      typeof given === 'object' && given !== null ? given : undefined;
    switch (condition?.type) {
      case 'max-round-trips':
        maxRounds = Math.min(maxRounds, condition.max);
        break;
      case 'token-budget':
        tokens = Math.min(tokens, condition.max);
        break;
      case 'time-budget':
        time = Math.min(time, condition.maxMs);
        break;
      case 'cost-budget':
        costs.push({ cost: condition.cost, max: condition.max });
        break;
      case 'loop-guard':
        if (guardOff) {
          throw new InvalidOptionsError({
            option: 'guard',
            message: 'is false, yet stopWhen holds a loopGuard()',
          });
        }
        guard = { ...guard, ...condition.options };
        break;
      case 'custom':
        custom.push({ name: condition.name, check: condition.check });
        break;
      default:
        throw new InvalidOptionsError({
          option: `stopWhen[${index}]`,
          message: 'must be made by maxRoundTrips, tokenBudget, timeBudget, costBudget, loopGuard or stopIf',
        });
    }
  }
  return {
    maxRoundTrips: Number.isFinite(maxRounds) ? maxRounds : DEFAULT_MAX_ROUND_TRIPS,
    tokenBudget: tokens,
    timeBudgetMs: time,
    costs,
    custom,
    guard: guardOff ? undefined : resolveGuard(guard ?? {}),
  };
}

export function resolveGuard(guard: GuardOptions): ResolvedGuard {
  if (typeof guard !== 'object' || guard === null) {
    throw new InvalidOptionsError({ option: 'guard', message: 'must be an object of thresholds, or false' });
  }
  if (guard.nudge !== undefined && typeof guard.nudge !== 'boolean') {
    throw new InvalidOptionsError({ option: 'guard.nudge', message: 'must be a boolean' });
  }
  return {
    hints: resolveHintOptions(guard.hints),
    repeatLimit:
      checkNumberOption(guard.repeatLimit, { option: 'guard.repeatLimit', min: 2 }) ?? DEFAULT_REPEAT_LIMIT,
    sameResultLimit:
      checkNumberOption(guard.sameResultLimit, { option: 'guard.sameResultLimit', min: 2 }) ??
      DEFAULT_SAME_RESULT_LIMIT,
    maxCyclePeriod:
      checkNumberOption(guard.maxCyclePeriod, { option: 'guard.maxCyclePeriod', min: 0 }) ??
      DEFAULT_MAX_CYCLE_PERIOD,
    noProgressRounds:
      checkNumberOption(guard.noProgressRounds, {
        option: 'guard.noProgressRounds',
        min: 2,
        max: DEFAULT_GUARD_WINDOW_ROUNDS,
      }) ?? DEFAULT_NO_PROGRESS_ROUNDS,
    transientRepeatLimit:
      checkNumberOption(guard.transientRepeatLimit, { option: 'guard.transientRepeatLimit', min: 0 }) ??
      DEFAULT_TRANSIENT_REPEAT_LIMIT,
    nudge: guard.nudge ?? DEFAULT_NUDGE,
  };
}

function resolveHintOptions(hints: unknown): Readonly<Record<string, LoopHints>> {
  if (hints === undefined) return {};
  if (typeof hints !== 'object' || hints === null || Array.isArray(hints)) {
    throw new InvalidOptionsError({
      option: 'guard.hints',
      message: 'must be an object of loop hints by tool name',
    });
  }
  const resolved: Record<string, LoopHints> = Object.create(null);
  for (const [tool, value] of Object.entries(hints)) {
    const problem = loopHintsProblem(value);
    if (problem !== undefined) {
      throw new InvalidOptionsError({ option: `guard.hints.${tool.slice(0, 64)}`, message: problem });
    }
    resolved[tool] = value as LoopHints;
  }
  return resolved;
}

export interface StopFinding {
  readonly reason: StopReason;
  readonly evidence: StopEvidence;
}

/**
 * Whether one more model call is allowed. Pure but for the caller's own `cost` and `stopIf` functions:
 * one that throws is reported as a `CALLBACK_FAILED` stop, never thrown.
 */
export function checkStops(context: StopContext, stops: ResolvedStops): StopFinding | undefined {
  if (context.roundTrips >= stops.maxRoundTrips) {
    return ceiling('MAX_ROUND_TRIPS', 'round-trips', stops.maxRoundTrips, context.roundTrips);
  }
  if (context.usage.totalTokens >= stops.tokenBudget) {
    return ceiling('BUDGET_EXHAUSTED', 'tokens', stops.tokenBudget, context.usage.totalTokens);
  }
  if (context.elapsedMs >= stops.timeBudgetMs) {
    return ceiling('BUDGET_EXHAUSTED', 'time', stops.timeBudgetMs, Math.round(context.elapsedMs));
  }
  for (const { cost, max } of stops.costs) {
    let used: unknown;
    try {
      used = cost(context.usage);
    } catch (error) {
      return { reason: 'CALLBACK_FAILED', evidence: { kind: 'error', error, callback: 'cost' } };
    }
    if (typeof used !== 'number' || Number.isNaN(used)) {
      const error = new TypeError(
        `cost returned ${typeof used === 'number' ? 'NaN' : typeof used}, not a number`,
      );
      return { reason: 'CALLBACK_FAILED', evidence: { kind: 'error', error, callback: 'cost' } };
    }
    if (used >= max) return ceiling('BUDGET_EXHAUSTED', 'cost', max, used);
  }
  for (const { name, check } of stops.custom) {
    let said: unknown;
    try {
      said = check(context);
    } catch (error) {
      return { reason: 'CALLBACK_FAILED', evidence: { kind: 'error', error, callback: `stopIf(${name})` } };
    }
    if (said) {
      return {
        reason: 'STOP_CONDITION',
        evidence: said === true ? { kind: 'condition', name } : { kind: 'condition', name, detail: said },
      };
    }
  }
  return undefined;
}

function ceiling(
  reason: 'MAX_ROUND_TRIPS' | 'BUDGET_EXHAUSTED',
  limit: 'round-trips' | 'tokens' | 'time' | 'cost',
  max: number,
  used: number,
): StopFinding {
  return { reason, evidence: { kind: 'ceiling', limit, max, used } };
}
