import type { LoopDetector } from '../../src/core/guard-state.js';
import type { LoopOutcome, StopReason } from '../../src/core/loop-outcome.js';
import type { Message } from '../../src/core/message.js';
import type { RunOptions } from '../../src/run/loop-options.js';
import type { ScriptedModel } from '../../src/testing/scripted-model.js';
import type { AnyTool } from '../../src/tools/define-tool.js';
import type { GuardClass } from './guard-class.js';

/** What a scenario must end with under the default guarded policy. */
export type ScenarioExpectation = 'completed' | StopReason;

/**
 * `legitimate`: real work that must complete. `loop`: the model repeats itself and must be stopped as a
 * loop soon after the loop shows. `bounded`: neither a loop nor a task that fits (a runaway of distinct
 * useless calls, more work than a call limit allows): a bound must end it.
 */
export type ScenarioKind = 'legitimate' | 'loop' | 'bounded';

/**
 * Which corpus a scenario belongs to. `v2`: the suite of issue 9, which the guard ends as each scenario
 * states. `v3`: the evidence of issue 24 for the next guard, grouped by class; some fail today (see
 * `__fixtures__/known-v3-failures.ts`).
 */
export type ScenarioSet = 'v2' | 'v3';

/** The options a scenario runs with under every policy (a step cap replaces `guard` and `maxRoundTrips`). */
export type ScenarioOptions = Pick<RunOptions, 'guard' | 'maxRoundTrips'>;

/** What the runner hands a scenario's own check: the whole scenario's run. */
export interface ScenarioRun {
  /** The outcome of the last request that ran. */
  readonly outcome: LoopOutcome;
  /** One outcome per request that ran, in order (a stopped request ends the scenario). */
  readonly requests: readonly LoopOutcome[];
  /** Round trips of every request together: the scenario's round count. */
  readonly roundTrips: number;
  readonly toolCalls: number;
}

/** One run's ingredients: a fresh model (it records its requests), fresh tools, the user's message. */
export interface ScenarioSetup {
  readonly model: ScriptedModel;
  readonly tools: readonly AnyTool[];
  /** The conversation of the first request, ending with the user's message. */
  readonly messages: readonly Message[];
  /** The user's messages of the requests that follow, in one session (`sessionId` and a `MemoryStore`). */
  readonly followUps?: readonly string[];
  /** Run options the task needs (a raised ceiling, per-loop hints). */
  readonly options?: ScenarioOptions;
  /**
   * What else must hold of the guarded run (the stop text names the hint, a tool ran once): the problems
   * found, empty when all is well. It may read the counters of this build.
   */
  readonly check?: (run: ScenarioRun) => readonly string[];
}

/**
 * A scripted-model scenario of the loop suite: data plus a `build` that makes everything anew, so runs
 * share no state (tool counters and the model's recorded requests live in the closure of one build).
 */
export interface LoopScenario {
  /** Position in the suite. */
  readonly id: number;
  readonly set: ScenarioSet;
  /** For a `v3` scenario: the class of issue 24 it is evidence for. */
  readonly guardClass?: GuardClass;
  /** The shape of work it is drawn from (pagination, polling, ...). */
  readonly family: string;
  readonly name: string;
  readonly description: string;
  readonly kind: ScenarioKind;
  readonly expected: ScenarioExpectation;
  /** For a stop: the detector that must fire (when the scenario is about one). */
  readonly detector?: LoopDetector;
  /**
   * For a loop: the first round (counted over the scenario's requests) that brings nothing new, the round
   * where the loop became evident. It must be stopped by `evidentAt + 3`, a cycle by `evidentAt + period
   * + 1` (2k + 1 rounds after its start, `evidentAt - period`).
   */
  readonly evidentAt?: number;
  /** For a cycle: its period k in rounds. */
  readonly period?: number;
  build(): ScenarioSetup;
}

/** A scenario as its family file declares it: the suite gives it its position and its set. */
export type ScenarioSpec = Omit<LoopScenario, 'id' | 'set'>;

/** A scenario of issue 24 as its class file declares it: its class is required. */
export type V3ScenarioSpec = ScenarioSpec & { readonly guardClass: GuardClass };
