import type { ToolExecutionPolicy } from '../chain/execution-policy.js';
import {
  DEFAULT_MAX_CYCLE_PERIOD,
  DEFAULT_MAX_ROUND_TRIPS,
  DEFAULT_NO_PROGRESS_ROUNDS,
  DEFAULT_NUDGE,
  DEFAULT_REPEAT_LIMIT,
  DEFAULT_SAME_RESULT_LIMIT,
  DEFAULT_STOP_FALLBACK_TEXT,
  DEFAULT_TRANSIENT_REPEAT_LIMIT,
} from '../defaults.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { Message } from '../messages/message.js';
import type { Model } from '../model/model.js';
import type { GuardStore } from '../session/guard-store.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { LoopThresholds } from '../guard/detect-loops.js';
import type { LoopUsage, StopEvidence, StopReason } from './loop-outcome.js';

/** What a stop hands to a fallback function or a handoff. */
export interface StopInfo {
  readonly reason: StopReason;
  readonly evidence: StopEvidence;
  readonly messages: readonly Message[];
}

export interface GuardOptions extends Partial<LoopThresholds> {
  /** Tell the model once, on the repeat before a stop, that it is repeating itself (default true). */
  readonly nudge?: boolean;
}

export interface ToolLoopOptions extends ToolExecutionPolicy {
  readonly model: Model;
  /** The conversation so far, ending with the user's message. */
  readonly messages: readonly Message[];
  readonly tools: ToolRegistry | Iterable<AnyTool>;
  /** Model calls in this request, at most (default 20). */
  readonly maxRoundTrips?: number;
  /** Input + output tokens in this request, at most. */
  readonly tokenBudget?: number;
  /** Wall-clock time for this request in milliseconds: the model's and the tools' signals abort at it. */
  readonly timeBudgetMs?: number;
  /** Cost of the usage so far (any unit); with `costBudget`, a ceiling on spend. */
  readonly cost?: (usage: LoopUsage) => number;
  readonly costBudget?: number;
  /** The semantic loop guard: thresholds, the nudge, or `false` to count steps only. */
  readonly guard?: GuardOptions | false;
  /** On a stop, one last model call with tools disabled, so the user gets an answer (default false). */
  readonly finalAnswer?: boolean;
  /** The text of a stopped outcome when there is no last answer: fixed, or made from the stop. */
  readonly fallback?: string | ((stop: StopInfo) => string);
  /**
   * Called on every stop (hand the conversation to a human queue). A string it returns becomes the text,
   * unless the last answer (`finalAnswer`) gave one.
   */
  readonly handoff?: (stop: StopInfo) => string | undefined | Promise<string | undefined>;
  /** Throw `LoopStoppedError` instead of returning a stopped outcome (opt-in; default false). */
  readonly throwOnStop?: boolean;
  readonly signal?: AbortSignal;
  /** With `store`: the guard remembers this conversation across requests. */
  readonly sessionId?: string;
  readonly store?: GuardStore;
  /** Caller data passed to every tool, never to the model. */
  readonly data?: unknown;
  readonly turnId?: string;
  /** Clock in milliseconds (default `performance.now`). */
  readonly now?: () => number;
}

export interface ResolvedLoopOptions {
  readonly maxRoundTrips: number;
  readonly tokenBudget: number;
  readonly timeBudgetMs: number;
  readonly costBudget: number;
  readonly guard: (LoopThresholds & { readonly nudge: boolean }) | undefined;
  readonly fallback: (stop: StopInfo) => string;
}

export function resolveLoopOptions(options: ToolLoopOptions): ResolvedLoopOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError({ option: 'options', message: 'runToolLoop expects an options object' });
  }
  if (typeof options.model?.generate !== 'function') {
    throw new InvalidOptionsError({
      option: 'model',
      message: 'must have a generate({ messages, tools, signal }) method',
    });
  }
  if (!Array.isArray(options.messages)) {
    throw new InvalidOptionsError({ option: 'messages', message: 'must be an array of messages' });
  }
  if (options.costBudget !== undefined && typeof options.cost !== 'function') {
    throw new InvalidOptionsError({
      option: 'cost',
      message: 'is required when costBudget is given (a function of the usage)',
    });
  }
  if (options.store !== undefined && options.sessionId === undefined) {
    throw new InvalidOptionsError({ option: 'sessionId', message: 'is required when a store is given' });
  }
  const guard = options.guard;
  const { fallback } = options;
  return {
    maxRoundTrips: count(options.maxRoundTrips, 'maxRoundTrips', 1) ?? DEFAULT_MAX_ROUND_TRIPS,
    tokenBudget: count(options.tokenBudget, 'tokenBudget', 1) ?? Number.POSITIVE_INFINITY,
    timeBudgetMs: count(options.timeBudgetMs, 'timeBudgetMs', 1) ?? Number.POSITIVE_INFINITY,
    costBudget: positive(options.costBudget, 'costBudget') ?? Number.POSITIVE_INFINITY,
    guard:
      guard === false
        ? undefined
        : {
            repeatLimit: count(guard?.repeatLimit, 'guard.repeatLimit', 2) ?? DEFAULT_REPEAT_LIMIT,
            sameResultLimit:
              count(guard?.sameResultLimit, 'guard.sameResultLimit', 2) ?? DEFAULT_SAME_RESULT_LIMIT,
            maxCyclePeriod:
              count(guard?.maxCyclePeriod, 'guard.maxCyclePeriod', 0) ?? DEFAULT_MAX_CYCLE_PERIOD,
            noProgressRounds:
              count(guard?.noProgressRounds, 'guard.noProgressRounds', 2) ?? DEFAULT_NO_PROGRESS_ROUNDS,
            transientRepeatLimit:
              count(guard?.transientRepeatLimit, 'guard.transientRepeatLimit', 0) ??
              DEFAULT_TRANSIENT_REPEAT_LIMIT,
            nudge: guard?.nudge ?? DEFAULT_NUDGE,
          },
    fallback:
      typeof fallback === 'function'
        ? fallback
        : () => (typeof fallback === 'string' ? fallback : DEFAULT_STOP_FALLBACK_TEXT),
  };
}

function count(value: unknown, option: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidOptionsError({ option, message: `must be an integer >= ${min}, got ${String(value)}` });
  }
  return value;
}

function positive(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0)) {
    throw new InvalidOptionsError({ option, message: `must be a number > 0, got ${String(value)}` });
  }
  return value;
}
