import type { generateText, StopCondition, ToolSet } from 'ai';
import { unwrappedResult } from '../../chain/idempotency/idempotency-answers.js';
import { argumentText } from '../../chain/normalize-tool-calls.js';
import { EMPTY_GUARD_STATE, type GuardState, type LoopEvidence } from '../../core/guard-state.js';
import type { ToolCall } from '../../core/message.js';
import type { ToolCallResult } from '../../core/tool-execution-result.js';
import { guardRound } from '../../guard/guard-round.js';
import { type GuardConfig, startRequest } from '../../guard/loop-guard.js';

/**
 * Where the guard is in the current `generateText` call. `running`: tools as usual. `answering`: the guard
 * said stop; the next step runs without tools so the model answers in text. `stopped`: a step ended after
 * that (the model called tools anyway, or no `prepareStep` was wired): `stopWhen` holds.
 */
type Phase = 'running' | 'answering' | 'stopped';

/** The AI SDK's stop condition over a tool set. */
export type GuardStopCondition<TOOLS extends ToolSet = ToolSet> = StopCondition<TOOLS>;
/**
 * The AI SDK's `prepareStep` over a tool set, spelled through `generateText`'s options: `ai`'s own
 * `PrepareStepFunction` constrains its tools to a type a `ToolSet` fails under `exactOptionalPropertyTypes`.
 */
export type GuardPrepareStep<TOOLS extends ToolSet = ToolSet> = NonNullable<
  Parameters<typeof generateText<TOOLS>>[0]['prepareStep']
>;
type Step = Parameters<GuardStopCondition>[0]['steps'][number];

/** The loop guard over the AI SDK's steps: what `guardTools` returns as `stopWhen` and `prepareStep`. */
export interface StepGuard {
  /** Keeps the chain's answer of a call, for the guard to read when its step ends. */
  record(call: ToolCall, result: ToolCallResult): void;
  /** Whether tool calls are refused now (the guard stopped the loop). */
  toolsOff(): boolean;
  readonly stopWhen: GuardStopCondition;
  readonly prepareStep: GuardPrepareStep;
  evidence(): LoopEvidence | undefined;
  state(): GuardState;
}

/** Calls recorded but never read (a step the guard did not see) are dropped past this many. */
const MAX_PENDING_CALLS = 1000;

/**
 * Feeds each finished step's calls, with the chain's answers, to the core loop guard (`guardRound`); on a
 * stop it keeps the evidence and, when `prepareStep` is wired, lets one more step run with no tools
 * (`activeTools: []`, `toolChoice: 'none'`), so the run ends with the model's text rather than the empty
 * text of a step cut off after its tool calls. A new `generateText` call (a first step not seen before) is
 * a new request of the same conversation for the guard.
 */
export function createStepGuard(options: {
  readonly config: GuardConfig | undefined;
  readonly isWrite: (tool: string) => boolean;
  readonly onLoop: ((evidence: LoopEvidence) => void) | undefined;
}): StepGuard {
  const { config, isWrite, onLoop } = options;
  let state: GuardState = EMPTY_GUARD_STATE;
  let phase: Phase = 'running';
  let stop: LoopEvidence | undefined;
  let wired = false;
  let firstStep: Step | undefined;
  const seen = new WeakSet<Step>();
  const pending = new Map<string, { call: ToolCall; result: ToolCallResult }>();

  const newRequest = () => {
    state = startRequest(state);
    phase = 'running';
    stop = undefined;
  };

  const observe = (step: Step): LoopEvidence | undefined => {
    const calls: ToolCall[] = [];
    const results: ToolCallResult[] = [];
    for (const part of step.content) {
      if (part.type !== 'tool-call') continue;
      const kept = pending.get(part.toolCallId);
      pending.delete(part.toolCallId);
      const answer = kept ?? unexecutedAnswer(step, part.toolCallId, part.toolName, part.input);
      if (answer === undefined) continue;
      calls.push(answer.call);
      results.push(unwrappedResult(answer.result));
    }
    if (config === undefined || calls.length === 0) return undefined;
    const outcome = guardRound({ state, config, isWrite, calls, results, toolMessages: [], nudge: false });
    state = outcome.state;
    return outcome.stop;
  };

  const stopWhen: GuardStopCondition = ({ steps }) => {
    const step = steps.at(-1);
    if (step === undefined || seen.has(step)) return phase === 'stopped';
    seen.add(step);
    if (steps[0] !== firstStep) {
      firstStep = steps[0];
      // `prepareStep` began this request already (its step 0); without it, this is the request's start.
      if (!wired || steps.length > 1) newRequest();
    }
    switch (phase) {
      case 'running': {
        const found = observe(step);
        if (found === undefined) return false;
        stop = found;
        phase = wired ? 'answering' : 'stopped';
        onLoop?.(found);
        return phase === 'stopped';
      }
      case 'answering':
      case 'stopped':
        phase = 'stopped';
        return true;
      default: {
        const never: never = phase;
        return never;
      }
    }
  };

  const prepareStep: GuardPrepareStep = ({ stepNumber }) => {
    if (stepNumber === 0) newRequest();
    wired = true;
    return phase === 'answering' ? { activeTools: [], toolChoice: 'none' } : undefined;
  };

  return {
    record(call, result) {
      if (pending.size >= MAX_PENDING_CALLS) pending.clear();
      pending.set(call.id, { call, result });
    },
    toolsOff: () => phase !== 'running',
    stopWhen,
    prepareStep,
    evidence: () => stop,
    state: () => state,
  };
}

/**
 * The answer of a call that never reached the chain, as the guard records it: the AI SDK's own
 * `tool-error` (input that is not JSON or breaks the schema), so a model repeating a broken call is seen.
 */
function unexecutedAnswer(
  step: Step,
  toolCallId: string,
  toolName: string,
  input: unknown,
): { call: ToolCall; result: ToolCallResult } | undefined {
  const error = step.content.find((part) => part.type === 'tool-error' && part.toolCallId === toolCallId);
  if (error === undefined || error.type !== 'tool-error') return undefined;
  const call = { id: toolCallId, name: toolName, arguments: argumentText(input) };
  const content = error.error instanceof Error ? error.error.message : String(error.error);
  return {
    call,
    result: {
      type: 'error',
      toolCallId,
      toolName,
      content,
      attempts: 0,
      durationMs: 0,
      code: 'INVALID_ARGUMENTS',
      errorClass: 'invalid-input',
      error: error.error,
    },
  };
}
