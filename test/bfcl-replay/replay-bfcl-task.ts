import { createToolRuntime } from '../../src/chain/runtime.js';
import type { LoopDetector } from '../../src/core/guard-state.js';
import type { StopEvidence, StopReason } from '../../src/core/loop-outcome.js';
import type { AssistantMessage, Message } from '../../src/core/message.js';
import type { RunEvent } from '../../src/core/run-event.js';
import type { ToolCallResult } from '../../src/core/tool-execution-result.js';
import { runToolLoop } from '../../src/run/run-tool-loop.js';
import { loopGuard } from '../../src/run/stop-conditions.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { callBfclMethod, type Method } from './__fixtures__/bfcl-api.js';
import { BFCL_CLASSES, loadBfclMethods } from './__fixtures__/bfcl-classes.js';
import type { BfclToolbox, CallExecutor, Effects } from './create-bfcl-toolbox.js';
import { type PlannedCall, planTurns } from './plan-turns.js';
import type { MultiTurnTask } from './read-multi-turn-tasks.js';

/**
 * How a turn's ground-truth calls reach the loop. `sequential`: one call per model response, in order
 * (what a model does when each call depends on the one before: `cd` then `ls`), the reading the replay
 * asserts first. `per-turn`: all of a turn's calls in one response (a model that batches them).
 */
export type Batching = 'sequential' | 'per-turn';

export interface ReplayMode {
  readonly batching: Batching;
  readonly effects: Effects;
}

/** Every mode, sequential first (one call per response, the ground truth's order), declared first. */
export const REPLAY_MODES: readonly ReplayMode[] = [
  { batching: 'sequential', effects: 'declared' },
  { batching: 'sequential', effects: 'undeclared' },
  { batching: 'per-turn', effects: 'declared' },
  { batching: 'per-turn', effects: 'undeclared' },
];

/** A request of the task that did not complete. */
export interface ReplayStop {
  /** The turn, from 1. */
  readonly turn: number;
  readonly reason: StopReason;
  readonly detector: LoopDetector | undefined;
  readonly evidence: StopEvidence;
  /** The last calls of the turns before (up to 4), for the context of the stop. */
  readonly earlier: readonly string[];
  /** The ground-truth calls of the turn that ran, the last where it stopped. */
  readonly ran: readonly string[];
  /** The calls of the turn that did not run. */
  readonly notRun: readonly string[];
}

/** A warning of the guard (a finding short of a stop), with where it came. */
export interface ReplayWarning {
  readonly turn: number;
  readonly detector: LoopDetector;
  readonly toolNames: readonly string[];
}

/** What replaying one task under one mode came to. */
export interface TaskReplay {
  readonly id: string;
  readonly turns: number;
  readonly calls: number;
  /** Model responses with calls, as planned (the guard's rounds, when nothing stops). */
  readonly rounds: number;
  /** The first request that did not complete, if one did not (the task ends there). */
  readonly stop: ReplayStop | undefined;
  readonly warnings: readonly ReplayWarning[];
  /**
   * What is wrong with the replay itself rather than the guard: a ground-truth call the chain refused or
   * that answered with an error (BFCL's Python classes give none on these tasks), arguments changed on
   * the way. Empty when the replay is faithful.
   */
  readonly problems: readonly string[];
}

/** Whether the task uses only classes this replay implements. */
export function isCovered(task: MultiTurnTask): boolean {
  return task.involvedClasses.every((name) => Object.hasOwn(BFCL_CLASSES, name));
}

/**
 * Replays one task through `runToolLoop`: a fresh instance of each class from `initial_config`, the
 * classes' tools (imported from their func docs), one runtime (default policy and limits) and one session
 * for the task, one request per turn (the conversation carried over), under the default guard. A scripted
 * model gives the turn's ground-truth calls, then a short answer.
 */
export async function replayBfclTask(
  task: MultiTurnTask,
  toolbox: BfclToolbox,
  mode: ReplayMode,
): Promise<TaskReplay> {
  const methods = loadBfclMethods(task.involvedClasses, task.initialConfig);
  const plan = planTurns(task, toolbox.parameterNames);
  const problems: string[] = [];
  const execute = createRoundExecutor(plan, mode.batching, methods, problems);
  const runtime = createToolRuntime({ tools: toolbox.toolsFor(task.involvedClasses, mode.effects) });
  const warnings: ReplayWarning[] = [];
  let messages: Message[] = [];
  let rounds = 0;
  for (const [index, turnCalls] of plan.entries()) {
    const turn = index + 1;
    const responses = responsesOf(turnCalls, mode.batching, turn);
    rounds += responses.length - 1;
    const model = new ScriptedModel({ script: responses });
    messages = [...messages, { role: 'user', content: task.questions[index] ?? '' }];
    const outcome = await runToolLoop({
      model,
      runtime,
      messages,
      sessionId: task.id,
      stopWhen: [loopGuard()],
      data: execute,
      onEvent: (event: RunEvent) => {
        if (event.type === 'guard-warn')
          warnings.push({ turn, detector: event.evidence.detector, toolNames: event.evidence.toolNames });
      },
    });
    problems.push(...resultProblems(turn, turnCalls, outcome.toolResults, outcome.type === 'stopped'));
    if (outcome.type === 'stopped') {
      const ranIds = new Set(outcome.toolResults.map((result) => result.toolCallId));
      return {
        id: task.id,
        turns: plan.length,
        calls: plan.flat().length,
        rounds,
        stop: {
          turn,
          reason: outcome.reason,
          detector: outcome.evidence.kind === 'loop' ? outcome.evidence.detector : undefined,
          evidence: outcome.evidence,
          earlier: plan
            .slice(0, index)
            .flat()
            .slice(-4)
            .map((call) => call.text),
          ran: turnCalls.filter((call) => ranIds.has(call.id)).map((call) => call.text),
          notRun: turnCalls.filter((call) => !ranIds.has(call.id)).map((call) => call.text),
        },
        warnings,
        problems,
      };
    }
    if (model.callCount !== responses.length)
      problems.push(
        `turn ${turn}: the model was called ${model.callCount} times, ${responses.length} planned`,
      );
    messages = [...outcome.messages];
  }
  return {
    id: task.id,
    turns: plan.length,
    calls: plan.flat().length,
    rounds,
    stop: undefined,
    warnings,
    problems,
  };
}

/** The model's responses for one turn: the calls, one response each or all in one, then an answer. */
function responsesOf(calls: readonly PlannedCall[], batching: Batching, turn: number): AssistantMessage[] {
  const rounds = batching === 'sequential' ? calls.map((call) => [call]) : calls.length > 0 ? [calls] : [];
  return [
    ...rounds.map(
      (round): AssistantMessage => ({
        role: 'assistant',
        content: '',
        toolCalls: round.map((call) => ({
          id: call.id,
          name: call.name,
          arguments: JSON.stringify(call.args),
        })),
      }),
    ),
    { role: 'assistant', content: `Turn ${turn} done.` },
  ];
}

/**
 * The tools' handler. The chain may start the calls of one response in any order (reads run beside the
 * writes), so the first call of a response to arrive runs the whole response against the classes in the
 * ground truth's order, as BFCL's executor does, and each call then takes its own result.
 */
function createRoundExecutor(
  plan: readonly (readonly PlannedCall[])[],
  batching: Batching,
  methods: Readonly<Record<string, Method>>,
  problems: string[],
): CallExecutor {
  const responseOf = new Map<string, readonly PlannedCall[]>();
  for (const turn of plan) {
    for (const call of turn) responseOf.set(call.id, batching === 'per-turn' ? turn : [call]);
  }
  const results = new Map<string, unknown>();
  return (name, args, callId) => {
    const response = responseOf.get(callId);
    const call = response?.find((planned) => planned.id === callId);
    if (response === undefined || call === undefined || call.name !== name)
      throw new Error(`unplanned call ${callId} to ${name}`);
    if (JSON.stringify(args) !== JSON.stringify(call.args))
      problems.push(`${call.text}: the tool got ${JSON.stringify(args)}`);
    if (!results.has(callId)) {
      for (const planned of response) {
        const method = methods[planned.name];
        if (method === undefined) throw new Error(`no method ${planned.name}`);
        results.set(planned.id, callBfclMethod(method, planned.args));
      }
    }
    return results.get(callId);
  };
}

/**
 * A turn's calls that went wrong: refused or failed in the chain, answered with an error by the class
 * (`{"error": ...}`, or what a Python exception becomes), or not run at all.
 */
function resultProblems(
  turn: number,
  calls: readonly PlannedCall[],
  results: readonly ToolCallResult[],
  stopped: boolean,
): string[] {
  const problems: string[] = [];
  for (const call of calls) {
    const result = results.find((candidate) => candidate.toolCallId === call.id);
    if (result === undefined) {
      if (!stopped) problems.push(`turn ${turn}: ${call.text} did not run`);
    } else if (result.type === 'error') {
      problems.push(`turn ${turn}: ${call.text} failed with ${result.code}: ${result.content}`);
    } else if (isErrorValue(result.value)) {
      problems.push(`turn ${turn}: ${call.text} answered ${result.content}`);
    }
  }
  return problems;
}

function isErrorValue(value: unknown): boolean {
  if (typeof value === 'string') return value.startsWith('Error during execution');
  if (Array.isArray(value)) return value.some(isErrorValue);
  return typeof value === 'object' && value !== null && Object.hasOwn(value, 'error');
}
