import { type CallsOutcome, runToolCalls } from '../chain/calls.js';
import { guardCallsOf } from '../chain/guard-calls.js';
import { inCallOrder, type PausedRound } from '../chain/paused-round.js';
import type { StopEvidence } from '../core/loop-outcome.js';
import type { AssistantMessage, ToolCall, ToolMessage } from '../core/message.js';
import type { TokenUsage } from '../core/model.js';
import { type RunState, runStateWith } from '../core/run-state.js';
import type { ToolCallResult, ToolErrorCode } from '../core/tool-execution-result.js';
import { formatToolError } from '../gate/format-tool-error.js';
import { unknownToolText } from '../gate/unknown-tool-text.js';
import { guardRound } from '../guard/guard-round.js';
import { abortStop } from './abort-stop.js';
import { elapsedOf, isWriteTool, type LiveRun, type LoopContext } from './loop-context.js';
import { NO_USAGE } from './normalize-response.js';
import { recordStep } from './record-step.js';
import type { StepDecision, StepResult } from './step-decision.js';
import { NOT_EXECUTED_TEXT } from './writes-done.js';

/** What a call of a round the runtime could not finish says when the call may have run. */
const UNKNOWN_RESULT_TEXT = formatToolError('INTERNAL_ERROR', [
  'The runtime failed while handling this call; its result is unknown. Do not assume it ran.',
]);

const NOTHING_SETTLED: ReadonlyMap<string, ToolMessage> = new Map();

type Stop = Extract<StepDecision, { type: 'stopped' }>;

/**
 * The round's calls through the chain, the guard over them, and the decision. `state` is the run before
 * the round's assistant message (`message`): the history is copied once per round, with both appended.
 * A paused round (`paused`) runs only its waiting calls, with the run's decisions; the calls that ran
 * before keep their answers, and every answer follows the assistant message in the model's order. When
 * calls wait for a decision and nothing stops the run, it pauses with the answers so far (the guard looks
 * at the round once it is complete).
 */
export async function runRound(
  state: RunState,
  run: LoopContext,
  live: LiveRun,
  message: AssistantMessage,
  usage: TokenUsage,
  paused?: PausedRound,
): Promise<StepResult> {
  const round = state.roundTrips;
  if (run.checkpoint !== undefined) await run.checkpoint();
  const settled = paused?.settled ?? NOTHING_SETTLED;
  const outcome = await runToolCalls(
    {
      assistant: paused === undefined ? message : { ...message, toolCalls: paused.waiting },
      counts: live.counts,
      signal: run.budget.handed,
      data: run.options.data,
      turnId: state.turnId,
      sessionId: state.sessionId,
      runId: state.runId,
      now: run.now,
      onEvent: run.emit,
      includeContent: run.includeContent,
      decisions: paused === undefined ? undefined : run.decisions,
    },
    run.runtime,
  );
  if (outcome.unknownTool !== undefined) {
    // `unknownTool: 'throw'`: no call ran; the model asked for a tool that does not exist.
    const unknown = outcome.unknownTool;
    const stop = {
      type: 'stopped',
      reason: 'MODEL_ERROR',
      evidence: { kind: 'error', error: unknown },
    } as const;
    return failedRound(state, run, message, stop, outcome, settled, {
      toolCallId: unknown.toolCallId,
      content: formatToolError('UNKNOWN_TOOL', unknownToolText(unknown.toolName, unknown.availableTools)),
      errorCode: 'UNKNOWN_TOOL',
    });
  }
  if (outcome.callbackFailure !== undefined) {
    const { callback, error } = outcome.callbackFailure;
    const stop = {
      type: 'stopped',
      reason: 'CALLBACK_FAILED',
      evidence: { kind: 'error', error, callback },
    } as const;
    return failedRound(state, run, message, stop, outcome, settled);
  }
  const chainStop = stopOf(outcome, run);
  const calls = message.toolCalls ?? [];
  if (outcome.interrupted !== undefined) {
    // What stops the run beats the pause: the waiting calls are then answered as not executed.
    if (chainStop !== undefined) return failedRound(state, run, message, chainStop, outcome, settled);
    recordStep(run, round, message, usage, outcome.results);
    const answered = inCallOrder(calls, settled, outcome.toolMessages);
    return {
      state: runStateWith(state, {
        messages: state.messages.concat(message, answered),
        pending: outcome.interrupted,
        toolCalls: state.toolCalls + outcome.results.length,
        elapsedMs: elapsedOf(run),
      }),
      decision: { type: 'interrupted', pending: outcome.interrupted },
    };
  }

  let toolMessages =
    settled.size === 0 ? outcome.toolMessages : inCallOrder(calls, settled, outcome.toolMessages);
  let guard = state.guard;
  let loopStop: StopEvidence | undefined;
  if (run.guard !== undefined && guard !== undefined) {
    const guarded = guardRound({
      state: guard,
      config: run.guard,
      isWrite: (tool) => isWriteTool(run, tool),
      calls: guardCallsOf(
        calls,
        settled.size === 0 ? outcome.results : roundResults(calls, settled, outcome.results),
      ),
      toolMessages,
      nudge: run.config.stops.guard?.nudge === true,
    });
    guard = guarded.state;
    toolMessages = guarded.toolMessages;
    if (run.emit !== undefined) {
      for (const warning of guarded.warnings) run.emit({ type: 'guard-warn', round, ...warning });
    }
    if (guarded.stop !== undefined) loopStop = { kind: 'loop', ...guarded.stop };
  }
  const next = runStateWith(state, {
    messages: state.messages.concat(message, toolMessages),
    pending: null,
    toolCalls: state.toolCalls + outcome.results.length,
    elapsedMs: elapsedOf(run),
    ...(guard === undefined ? {} : { guard }),
  });
  recordStep(run, round, message, usage, outcome.results);

  if (chainStop !== undefined) return { state: next, decision: chainStop };
  if (loopStop !== undefined)
    return { state: next, decision: { type: 'stopped', reason: 'LOOP_DETECTED', evidence: loopStop } };
  if (outcome.returnDirect && [...settled.values()].every((answer) => returnsDirect(answer, run))) {
    return {
      state: next,
      decision: { type: 'completed', text: toolMessages.map((m) => m.content).join('\n') },
    };
  }
  return { state: next, decision: { type: 'continue' } };
}

/** What the chain's outcome stops the run for: an abort, a fatal failure, the store down, a limit under `throw`. */
function stopOf(outcome: CallsOutcome, run: LoopContext): Stop | undefined {
  if (outcome.aborted === true) return abortStop(run);
  if (outcome.fatal !== undefined) {
    return {
      type: 'stopped',
      reason: 'TOOL_FATAL',
      evidence: { kind: 'error', error: outcome.fatal.error },
    };
  }
  if (outcome.storeFailure !== undefined) {
    return {
      type: 'stopped',
      reason: 'STORE_UNAVAILABLE',
      evidence: { kind: 'error', error: outcome.storeFailure.error },
    };
  }
  const limited = outcome.limited;
  if (limited?.limit !== undefined && run.runtime.policy.onLimitExceeded === 'throw') {
    const { scope, limit } = limited.limit;
    return {
      type: 'stopped',
      reason: 'TOOL_CALL_LIMIT',
      evidence: { kind: 'limit', scope, tool: limited.toolName, limit },
    };
  }
  return undefined;
}

/**
 * The chain could not finish the round (a callback failed, an unknown tool under `unknownTool: 'throw'`,
 * or a stop while calls waited): the calls answered keep their messages and every other call gets one, so
 * the history stays well-formed. A call that did not run (the chain ran none, or it waited) says so; any
 * other says its result is unknown.
 */
function failedRound(
  state: RunState,
  run: LoopContext,
  message: AssistantMessage,
  stop: Stop,
  partial: CallsOutcome,
  settled: ReadonlyMap<string, ToolMessage>,
  answer?: { readonly toolCallId: string; readonly content: string; readonly errorCode: string },
): StepResult {
  const answered = new Map(settled);
  for (const toolMessage of partial.toolMessages) answered.set(toolMessage.toolCallId, toolMessage);
  const ranNone = partial.results.length === 0;
  const waiting = new Set(partial.interrupted?.map((pending) => pending.toolCallId));
  const toolMessages: ToolMessage[] = (message.toolCalls ?? []).map((call) => {
    const given = answered.get(call.id);
    if (given !== undefined) return given;
    if (answer?.toolCallId === call.id) {
      return {
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: answer.content,
        isError: true,
        errorCode: answer.errorCode,
      };
    }
    const content = ranNone || waiting.has(call.id) ? NOT_EXECUTED_TEXT : UNKNOWN_RESULT_TEXT;
    return {
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content,
      isError: true,
      errorCode: 'INTERNAL_ERROR',
    };
  });
  const results = partial.results;
  recordStep(run, state.roundTrips, message, NO_USAGE, results);
  return {
    state: runStateWith(state, {
      messages: state.messages.concat(message, toolMessages),
      pending: null,
      toolCalls: state.toolCalls + results.length,
      elapsedMs: elapsedOf(run),
    }),
    decision: stop,
  };
}

/** One result per call of a resumed round, in the model's order: the calls that ran before are read back from their answers. */
function roundResults(
  calls: readonly ToolCall[],
  settled: ReadonlyMap<string, ToolMessage>,
  results: readonly ToolCallResult[],
): ToolCallResult[] {
  const byId = new Map(results.map((result) => [result.toolCallId, result]));
  const all: ToolCallResult[] = [];
  for (const call of calls) {
    const answer = settled.get(call.id);
    const result = answer === undefined ? byId.get(call.id) : settledResult(answer);
    if (result !== undefined) all.push(result);
  }
  return all;
}

/** What the guard needs of a call answered before the pause (its text, whether it failed transiently or was denied), from its answer. */
function settledResult(answer: ToolMessage): ToolCallResult {
  const base = {
    toolCallId: answer.toolCallId,
    toolName: answer.name,
    content: answer.content,
    attempts: 0,
    durationMs: 0,
  };
  if (!answer.isError) return { ...base, type: 'success', value: undefined, truncated: false };
  const code = (answer.errorCode ?? 'TOOL_ERROR') as ToolErrorCode;
  return {
    ...base,
    type: 'error',
    code,
    errorClass:
      code === 'TOOL_UNAVAILABLE' ? 'transient' : code === 'PERMISSION_DENIED' ? 'denied' : 'invalid-input',
    error: undefined,
  };
}

/** A call answered before the pause lets the resumed round return directly only when its tool succeeded and asks to. */
function returnsDirect(answer: ToolMessage, run: LoopContext): boolean {
  return !answer.isError && run.runtime.tools.get(answer.name)?.returnDirect === true;
}
