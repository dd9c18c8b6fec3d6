import type { Message } from '../../messages/message.js';
import type { StopReason } from '../../run/loop-outcome.js';
import type { ScriptedModel } from '../../testing/scripted-model.js';
import type { AnyTool } from '../../tools/define-tool.js';

/** What a scenario must end with under the default guarded policy. */
export type ScenarioExpectation = 'completed' | StopReason;

/** One run's ingredients: a fresh model (it records its requests), fresh tools, the user's message. */
export interface ScenarioSetup {
  readonly model: ScriptedModel;
  readonly tools: readonly AnyTool[];
  readonly messages: readonly Message[];
  readonly expected: ScenarioExpectation;
}

/**
 * A scripted-model scenario of the loop suite: data plus a `build` that makes everything anew, so runs
 * share no state (tool counters and the model's recorded requests live in the closure of one build).
 */
export interface LoopScenario {
  /** Position in the suite (1-8, as numbered in the issue). */
  readonly id: number;
  readonly name: string;
  readonly description: string;
  /** True when the task is real work that must complete; false for a loop or a runaway model. */
  readonly legitimate: boolean;
  build(): ScenarioSetup;
}
