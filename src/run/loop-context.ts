import { countTurnCalls, type TurnCounts } from '../chain/limits.js';
import type { SettledDecision } from '../chain/resume-decision.js';
import type { ResolvedRuntime } from '../chain/runtime.js';
import { DEFAULT_MAX_ROUND_TRIPS } from '../core/defaults.js';
import type { LoopStep } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { ToolSpec } from '../core/model.js';
import type { RunEvent, RunEventListener } from '../core/run-event.js';
import type { RunState } from '../core/run-state.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import type { GuardConfig } from '../guard/loop-guard.js';
import { hintsByTool } from '../guard/loop-hints.js';
import { isToolEffect, mayChangeWorld, type ToolEffect } from '../tools/tool-effect.js';
import { type BudgetSignal, createBudgetSignal } from './budget-signal.js';
import type { LoopSettings, ResolvedLoopOptions } from './loop-options.js';

/**
 * What a run needs besides its state, resolved once per process: the checked options, the tools, the
 * signal, the clock and the event sink. Nothing here is saved; `RunState` is.
 */
export interface LoopContext {
  readonly options: LoopSettings;
  readonly config: ResolvedLoopOptions;
  readonly runtime: ResolvedRuntime;
  /** The loop guard's thresholds and the tools' hints; undefined when the guard is off. */
  readonly guard: GuardConfig | undefined;
  readonly specs: readonly ToolSpec[];
  readonly budget: BudgetSignal;
  readonly now: () => number;
  readonly startedAt: number;
  /** Time the run had spent before this process took it over (a resumed run). */
  readonly elapsedBefore: number;
  /** The event sink (a listener that throws is ignored); undefined when nobody listens, and then no event is built. */
  readonly emit: ((event: RunEvent) => void) | undefined;
  readonly includeContent: boolean;
  /** Report the model's deltas (`streamDeltas: true`): the model is then called through its stream when it has one. */
  readonly streamDeltas: boolean;
  /** Decisions for the paused round's calls (a resumed run), checked against them. */
  readonly decisions: ReadonlyMap<string, SettledDecision> | undefined;
  /** The steps and tool results of this process, for the outcome (they hold values that are not JSON). */
  readonly steps: LoopStep[];
  readonly toolResults: ToolCallResult[];
  /** Waits until the stream's consumer has read what was emitted; undefined for a plain await. */
  readonly checkpoint: (() => Promise<void>) | undefined;
  /** The working copies that belong to the state `step` returned last: reused while the driver hands it back. */
  live: LiveRun | undefined;
}

export interface LiveRun {
  /** The state these copies belong to (the one `step` returned last). */
  state: RunState;
  readonly counts: TurnCounts;
  /** Every call id in the history: a model that reuses one gets a generated id instead (ids are keys). */
  readonly callIds: Set<string>;
}

const defaultNow = (): number => performance.now();

/** The context of a run over `state`, from its checked options (`config`: resolved from `options`). */
export function createLoopContext(
  options: LoopSettings,
  runtime: ResolvedRuntime,
  state: RunState,
  hooks: {
    readonly config: ResolvedLoopOptions;
    readonly listener?: RunEventListener | undefined;
    readonly checkpoint?: (() => Promise<void>) | undefined;
    readonly decisions?: ReadonlyMap<string, SettledDecision> | undefined;
  },
): LoopContext {
  const { config } = hooks;
  const listener = hooks.listener;
  const emit =
    listener === undefined
      ? undefined
      : (event: RunEvent) => {
          try {
            listener(event);
          } catch {
            // A broken listener must not change the outcome or lose the history.
          }
        };
  const now = options.now ?? defaultNow;
  return {
    options,
    config,
    runtime,
    guard: guardConfig(config, runtime),
    specs: runtime.tools.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputJsonSchema,
    })),
    budget: createBudgetSignal(
      options.signal,
      config.stops.timeBudgetMs - state.elapsedMs,
      hooks.checkpoint !== undefined,
    ),
    now,
    startedAt: now(),
    elapsedBefore: state.elapsedMs,
    emit,
    includeContent: options.includeContent === true,
    streamDeltas: options.streamDeltas === true,
    decisions: hooks.decisions,
    steps: [],
    toolResults: [],
    checkpoint: hooks.checkpoint,
    live: undefined,
  };
}

/** The working counts and guard for `state`: the cached ones when `state` is what `step` returned last, else rebuilt from it. */
export function liveFor(state: RunState, run: LoopContext): LiveRun {
  if (run.live?.state === state) return run.live;
  const { policy } = run.runtime;
  // A ceiling raised above its default raises the default turn limits with it (see `TurnCounts`): a run
  // told it may take 70 rounds is not stopped at 40 calls of its one pagination tool.
  const ceiling = run.config.stops.maxRoundTrips;
  const counts = countTurnCalls(state.messages, policy.limits.isExcluded);
  const live: LiveRun = {
    state,
    counts: ceiling > DEFAULT_MAX_ROUND_TRIPS ? { ...counts, ceiling } : counts,
    callIds: callIdsOf(state.messages),
  };
  run.live = live;
  return live;
}

/** The guard's configuration: each tool's hints resolved once, on first use. */
function guardConfig(config: ResolvedLoopOptions, runtime: ResolvedRuntime): GuardConfig | undefined {
  const guard = config.stops.guard;
  if (guard === undefined) return undefined;
  return { thresholds: guard, hintsOf: hintsByTool((tool) => runtime.tools.get(tool)?.loop, guard.hints) };
}

function callIdsOf(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) ids.add(call.id);
  }
  return ids;
}

/**
 * Whether a tool name (as the model asked for it) is one of the run's tools that may change the world:
 * writes of every kind and tools of unknown effect (see tool-effect.ts). A name the run does not know is not.
 */
export function isWriteTool(run: LoopContext, name: string): boolean {
  const tool = run.runtime.tools.get(name);
  return tool !== undefined && mayChangeWorld(tool.effect);
}

/** The effect of one of the run's tools, by the name the model asked for; undefined for a name the run does not know. */
export function effectOf(run: LoopContext, name: string): ToolEffect | undefined {
  const tool = run.runtime.tools.get(name);
  if (tool === undefined) return undefined;
  return isToolEffect(tool.effect) ? tool.effect : 'unknown';
}

/** Milliseconds the run has spent, this process's part included. */
export function elapsedOf(run: LoopContext): number {
  return run.elapsedBefore + (run.now() - run.startedAt);
}
