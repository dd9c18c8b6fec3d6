import type { ResumeDecision } from '../chain/resume-decision.js';
import { sleep as timerSleep } from '../chain/retry-delay.js';
import type { ToolRuntime, ToolRuntimeOptions } from '../chain/runtime.js';
import {
  DEFAULT_APPROVAL_TTL_MS,
  DEFAULT_CALLBACK_TIMEOUT_MS,
  DEFAULT_MODEL_RETRIES,
  DEFAULT_MODEL_TIMEOUT_MS,
} from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import type { LoopUsage } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { Model, ModelRequest, ModelResponse } from '../core/model.js';
import type { RunEvent } from '../core/run-event.js';
import type { RunState } from '../core/run-state.js';
import { checkFunction, checkNumberOption } from '../options/check-option.js';
import { defaultStopText } from './default-stop-text.js';
import {
  costBudget,
  type GuardOptions,
  maxRoundTrips,
  type ResolvedStops,
  resolveStops,
  type StopCondition,
  timeBudget,
  tokenBudget,
} from './stop-conditions.js';
import type { StopInfo } from './stop-info.js';
import type { RunWrapper } from './wrap-run.js';

/** Around every model call: a cache, a rate limiter or a tracer calls `next` (or answers itself). */
export type ModelCallWrapper = (
  request: ModelRequest & { readonly round: number },
  next: (request: ModelRequest) => Promise<ModelResponse>,
) => Promise<ModelResponse>;

/**
 * The options of `runToolLoop` and `streamToolLoop`: the run's settings; what it calls tools with, a
 * `runtime` (`createToolRuntime({ tools, ...policy })`: the tools and the policy, checked once, with the
 * store that keeps sessions, turns and paused runs) or `tools` alone (the shorthand for
 * `createToolRuntime({ tools })` for this run; its memory store lasts the run); and where it starts, a
 * conversation (`messages`) or `from` a run to go on with. The policy lives on the runtime: a policy option
 * given to the loop is refused.
 */
export type RunOptions = {
  readonly model: Model;
  /** When the run stops (`maxRoundTrips(20)`, `tokenBudget(n)`, `loopGuard({...})`, `stopIf(...)`); the numeric options below add to it. */
  readonly stopWhen?: readonly StopCondition[];
  /** Model calls in this run, at most (default 50, a cost bound: see `DEFAULT_MAX_ROUND_TRIPS`). Sugar for `maxRoundTrips(n)`. */
  readonly maxRoundTrips?: number;
  /** Input + output tokens, at most. Sugar for `tokenBudget(n)`. */
  readonly tokenBudget?: number;
  /** Wall-clock time in milliseconds: the model's and the tools' signals abort at it. Sugar for `timeBudget(ms)`. */
  readonly timeBudgetMs?: number;
  /** Cost of the usage so far (any unit); with `costBudget`, a ceiling on spend. Sugar for `costBudget(cost, max)`. */
  readonly cost?: (usage: LoopUsage) => number;
  readonly costBudget?: number;
  /** The semantic loop guard: thresholds, the nudge, or `false` to count steps only. */
  readonly guard?: GuardOptions | false;
  /** On a stop, one last model call with tools disabled, so the user gets an answer (default false). */
  readonly finalAnswer?: boolean;
  /** The text of a stopped outcome when there is no last answer: fixed, or made from the stop. */
  readonly fallback?: string | ((stop: StopInfo) => string);
  /** Called on every stop (hand the conversation to a human queue). A string it returns becomes the text, unless the last answer gave one. */
  readonly handoff?: (stop: StopInfo) => string | undefined | Promise<string | undefined>;
  /** Throw `LoopStoppedError` instead of returning a stopped outcome (opt-in; default false). */
  readonly throwOnStop?: boolean;
  readonly signal?: AbortSignal;
  /**
   * The conversation: the guard remembers it across requests, and session limits hold across them, in the
   * runtime's store (so it needs a `runtime`, not `tools` alone).
   */
  readonly sessionId?: string;
  /**
   * How long an interrupted run kept in the runtime's `store` (under its run id, for
   * `runToolLoop({ from: { runId } })`) takes decisions (default 24 hours, `DEFAULT_APPROVAL_TTL_MS`).
   */
  readonly approvalTtlMs?: number;
  /** A store call or a handoff that takes longer fails the run as `CALLBACK_FAILED` (default 5,000 ms). */
  readonly callbackTimeoutMs?: number;
  /** Caller data passed to every tool, never to the model. */
  readonly data?: unknown;
  /** The turn: its write records and limits are kept in the runtime's store (so it needs a `runtime`, not `tools` alone). */
  readonly turnId?: string;
  /** Clock in milliseconds (default `performance.now`). */
  readonly now?: () => number;
  /** The one event sink: the run's events and the chain's tool events. */
  readonly onEvent?: (event: RunEvent) => void;
  /** Let events carry the model's text, arguments, results and raw errors (default false: they never do). */
  readonly includeContent?: boolean;
  /**
   * Report the model's text and tool-input deltas as they stream (`model-text-delta`,
   * `model-tool-input-delta`; default false). They are content, so only this opt-in reports them; the
   * model is then called through its `stream` when it has one. Without it, `generate` is used when there.
   */
  readonly streamDeltas?: boolean;
  /**
   * Around each model call. Its `next` makes the call with the loop's retries and timeout (below): the
   * wrapper sees one call, and the last failure when every attempt failed.
   */
  readonly wrapModelCall?: ModelCallWrapper;
  /**
   * Retries of a model call that failed transiently: a 408, 409, 429 or 5xx, a network failure, an attempt
   * that timed out (default 2, as the AI SDK's `generateText`; 0: none). Waits 2 s, then 4 s (with jitter),
   * or what the provider's `Retry-After` / `retry-after-ms` asks up to 60 s (it stops at once when asked
   * for longer). Never after the run's abort, nor when the wait would pass `timeBudgetMs`.
   */
  readonly modelRetries?: number;
  /**
   * One attempt at a model call, at most, in milliseconds (default 600,000: ten minutes, the OpenAI and
   * Anthropic SDKs' own): the request is then aborted through its signal and the attempt fails with
   * `ModelTimeoutError`, retried as a transient failure.
   */
  readonly modelTimeoutMs?: number;
  /**
   * How the loop waits before a model retry (default a timer): a test passes one that records `ms` and
   * resolves at once. The run's abort ends the wait whatever it does.
   */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Around the whole run (a tracer's run span): see `RunWrapper`. */
  readonly wrapRun?: RunWrapper;
} & (
  | { readonly runtime: ToolRuntime; readonly tools?: undefined }
  | { readonly tools: ToolRuntimeOptions['tools']; readonly runtime?: undefined }
) &
  (
    | {
        /** The conversation so far, ending with the user's message. */
        readonly messages: readonly Message[];
        readonly from?: undefined;
        readonly decisions?: undefined;
      }
    | {
        /**
         * The run to go on with: its `RunState` (or the JSON text of one), in this process or another, or
         * `{ runId }` (`outcome.runId` of an interrupted run) for the run kept in the runtime's store, which
         * is claimed there so that it resumes once.
         */
        readonly from: RunState | string | { readonly runId: string };
        /**
         * For the paused round's waiting calls, by call id: an approval (`{ approve: true, argumentsDigest }`,
         * or `'run'` when you hold the state) runs it without asking `beforeToolCall` or `needsApproval`
         * again; a refusal (`{ approve: false, message? }` or `'deny'`) denies it. Undecided calls are asked again.
         */
        readonly decisions?: Readonly<Record<string, ResumeDecision>>;
        readonly messages?: undefined;
      }
  );

/** A run's own settings: everything in `RunOptions` but what it calls tools with and where it starts. */
export type LoopSettings = Omit<RunOptions, keyof LoopTools | keyof LoopStart>;

/** What a run calls tools with: a `runtime`, or `tools` alone. */
export type LoopTools = Pick<RunOptions, 'runtime' | 'tools'>;

/** Where a run starts: `messages`, or `from` and its `decisions`. */
export type LoopStart = Pick<RunOptions, 'messages' | 'from' | 'decisions'>;

/** A run kept in the runtime's store, by its id. */
export type StoredRunRef = Exclude<RunOptions['from'], RunState | string | undefined>;

/** The loop's options, resolved: stop conditions, the stop text, timeouts and retries. */
export interface ResolvedLoopOptions {
  readonly stops: ResolvedStops;
  readonly fallback: (stop: StopInfo) => string;
  readonly callbackTimeoutMs: number;
  readonly approvalTtlMs: number;
  readonly modelRetries: number;
  readonly modelTimeoutMs: number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Checks every option once, before anything runs; bad configuration throws `InvalidOptionsError`. */
export function resolveLoopOptions(options: LoopSettings): ResolvedLoopOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError({ option: 'options', message: 'the tool loop expects an options object' });
  }
  if (typeof options.model?.generate !== 'function' && typeof options.model?.stream !== 'function') {
    throw new InvalidOptionsError({
      option: 'model',
      message:
        'must have a generate({ messages, tools, signal }) or a stream({ messages, tools, signal }) method',
    });
  }
  if (options.costBudget !== undefined && typeof options.cost !== 'function') {
    throw new InvalidOptionsError({
      option: 'cost',
      message: 'is required when costBudget is given (a function of the usage)',
    });
  }
  for (const name of ['handoff', 'onEvent', 'wrapModelCall', 'wrapRun', 'now', 'cost', 'sleep'] as const) {
    checkFunction(options[name], { option: name });
  }
  if (options.stopWhen !== undefined && !Array.isArray(options.stopWhen)) {
    throw new InvalidOptionsError({ option: 'stopWhen', message: 'must be an array of stop conditions' });
  }
  const conditions: StopCondition[] = [...(options.stopWhen ?? [])];
  if (options.maxRoundTrips !== undefined) conditions.push(maxRoundTrips(options.maxRoundTrips));
  if (options.tokenBudget !== undefined) conditions.push(tokenBudget(options.tokenBudget));
  if (options.timeBudgetMs !== undefined) conditions.push(timeBudget(options.timeBudgetMs));
  if (options.costBudget !== undefined && options.cost !== undefined) {
    conditions.push(costBudget(options.cost, options.costBudget));
  }
  const guard = options.guard;
  const stops = resolveStops(
    guard === undefined || guard === false
      ? conditions
      : [...conditions, { type: 'loop-guard', options: guard }],
    guard === false,
  );
  const { fallback } = options;
  if (fallback !== undefined && typeof fallback !== 'string' && typeof fallback !== 'function') {
    throw new InvalidOptionsError({
      option: 'fallback',
      message: 'must be a string or a function of the stop',
    });
  }
  return {
    stops,
    fallback:
      typeof fallback === 'function'
        ? fallback
        : typeof fallback === 'string'
          ? () => fallback
          : defaultStopText,
    callbackTimeoutMs:
      checkNumberOption(options.callbackTimeoutMs, { option: 'callbackTimeoutMs', min: 1, timer: true }) ??
      DEFAULT_CALLBACK_TIMEOUT_MS,
    approvalTtlMs:
      checkNumberOption(options.approvalTtlMs, { option: 'approvalTtlMs', min: 1 }) ??
      DEFAULT_APPROVAL_TTL_MS,
    modelRetries:
      checkNumberOption(options.modelRetries, { option: 'modelRetries', min: 0, max: 100 }) ??
      DEFAULT_MODEL_RETRIES,
    modelTimeoutMs:
      checkNumberOption(options.modelTimeoutMs, { option: 'modelTimeoutMs', min: 1, timer: true }) ??
      DEFAULT_MODEL_TIMEOUT_MS,
    sleep: options.sleep ?? timerSleep,
  };
}
