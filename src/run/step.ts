import { formatToolError } from '../chain/format-tool-error.js';
import type { CallsOutcome } from '../chain/run-tool-calls.js';
import { runToolCalls } from '../chain/run-tool-calls.js';
import { errorType } from '../chain/tool-event.js';
import type { ToolCallResult } from '../chain/tool-execution-result.js';
import { unknownToolText } from '../chain/unknown-tool-text.js';
import { guardRound } from '../guard/guard-round.js';
import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../messages/message.js';
import type { TokenUsage } from '../model/model.js';
import { addUsage } from './add-usage.js';
import { callModel } from './call-model.js';
import type { StopEvidence, StopReason } from './loop-outcome.js';
import { NO_USAGE } from './normalize-response.js';
import { elapsedOf, isWriteTool, type LiveRun, liveFor, type RunContext } from './run-context.js';
import type { StepCallSummary } from './run-event.js';
import { generatedCallId, type PendingCall, type RunState, withoutPending } from './run-state.js';
import { checkStops } from './stop-conditions.js';
import { NOT_EXECUTED_TEXT } from './writes-done.js';

/** What a call of a round the runtime could not finish says when the call may have run. */
const UNKNOWN_RESULT_TEXT = formatToolError('INTERNAL_ERROR', [
  'The runtime failed while handling this call; its result is unknown. Do not assume it ran.',
]);

/** What a step decided: go round again, the answer, a stop with its evidence, or a pause before some calls run. */
export type StepDecision =
  | { readonly type: 'continue' }
  | { readonly type: 'completed'; readonly text: string }
  | { readonly type: 'stopped'; readonly reason: StopReason; readonly evidence: StopEvidence }
  | { readonly type: 'interrupted'; readonly pending: readonly PendingCall[] };

export interface StepResult {
  readonly state: RunState;
  readonly decision: StepDecision;
}

/**
 * One round of the loop: check the stop conditions, call the model, run its tool calls through the chain,
 * let the guard look at the round, decide. Takes a state and returns the next one (a new value; the one
 * passed in is not changed) with the decision. A paused state (`pending`) runs its waiting round first,
 * with the context's decisions. Never throws for a failure of the model, a tool or a callback: each is a
 * decision.
 */
export async function step(state: RunState, run: RunContext): Promise<StepResult> {
  const live = liveFor(state, run);
  if (state.pending !== undefined) {
    return finish(
      run,
      live,
      await runRound(
        { ...state, messages: state.messages.slice(0, -1) },
        run,
        live,
        state.messages.at(-1) as AssistantMessage,
        NO_USAGE,
      ),
    );
  }
  const stop = checkStops(
    { roundTrips: state.roundTrips, usage: state.usage, elapsedMs: elapsedOf(run), messages: state.messages },
    run.config.stops,
  );
  if (stop !== undefined)
    return finish(run, live, { state: timed(state, run), decision: { type: 'stopped', ...stop } });
  if (run.budget.signal.aborted)
    return finish(run, live, { state: timed(state, run), decision: abortStop(run) });

  const round = state.roundTrips + 1;
  run.emit?.({ type: 'step-start', round });
  if (run.checkpoint !== undefined) {
    await run.checkpoint();
    if (run.budget.signal.aborted)
      return finish(run, live, { state: timed(state, run), decision: abortStop(run) });
  }
  run.emit?.({ type: 'model-call-start', round, messages: state.messages.length, tools: run.specs.length });
  const started = run.emit === undefined ? 0 : run.now();
  let nextCallId = state.nextCallId;
  const newId = () => generatedCallId(state.runId, nextCallId++);
  const answer = await callModel(run, { messages: state.messages, round, tools: true }, newId);
  if (run.emit !== undefined) reportModelCall(run, round, started, answer);
  const message = answer.type === 'answer' ? withFreshIds(answer.message, live.callIds, newId) : undefined;
  const spent: RunState = {
    ...state,
    roundTrips: round,
    usage: answer.type === 'callback-failed' ? state.usage : addUsage(state.usage, answer.usage),
    nextCallId,
    elapsedMs: elapsedOf(run),
  };
  switch (answer.type) {
    case 'callback-failed':
      return finish(run, live, {
        state: spent,
        decision: {
          type: 'stopped',
          reason: 'callback-failed',
          evidence: { kind: 'error', error: answer.error, callback: 'wrapModelCall' },
        },
      });
    case 'failed':
      return finish(run, live, {
        state: spent,
        decision: run.budget.signal.aborted
          ? abortStop(run)
          : { type: 'stopped', reason: 'model-error', evidence: { kind: 'error', error: answer.error } },
      });
    case 'answer': {
      if (message === undefined) throw new TypeError('an answer without its message');
      if (message.toolCalls === undefined || message.toolCalls.length === 0) {
        record(run, round, message, answer.usage, []);
        const next: RunState = { ...spent, messages: extendHistory(run, state.messages, [message]) };
        return finish(run, live, { state: next, decision: { type: 'completed', text: message.content } });
      }
      return finish(run, live, await runRound(spent, run, live, message, answer.usage));
    }
    default: {
      const unreachable: never = answer;
      throw new TypeError(`unknown model answer ${String(unreachable)}`);
    }
  }
}

/**
 * The round's calls through the chain, the guard over them, and the decision. `state` is the run before
 * the round's assistant message (`message`): the history is copied once per round, with both appended.
 */
async function runRound(
  state: RunState,
  run: RunContext,
  live: LiveRun,
  message: AssistantMessage,
  usage: TokenUsage,
): Promise<StepResult> {
  const round = state.roundTrips;
  if (run.checkpoint !== undefined) await run.checkpoint();
  const outcome = await runToolCalls(
    {
      assistant: message,
      counts: live.counts,
      // A signal nothing can abort is no signal to the chain (it spares each call a listener).
      signal: run.budget.canAbort ? run.budget.signal : undefined,
      data: run.options.data,
      turnId: state.turnId,
      sessionId: state.sessionId,
      runId: state.runId,
      now: run.now,
      onEvent: run.emit,
      includeContent: run.includeContent,
      decisions: state.pending === undefined ? undefined : run.decisions,
    },
    run.runtime,
  );
  if (outcome.unknownTool !== undefined) {
    // `unknownTool: 'throw'`: no call ran; the model asked for a tool that does not exist.
    const unknown = outcome.unknownTool;
    const stop = { reason: 'model-error', evidence: { kind: 'error', error: unknown } } as const;
    return failedRound(state, run, message, stop, outcome, {
      toolCallId: unknown.toolCallId,
      content: formatToolError('UNKNOWN_TOOL', unknownToolText(unknown.toolName, unknown.availableTools)),
      errorCode: 'UNKNOWN_TOOL',
    });
  }
  if (outcome.callbackFailure !== undefined) {
    const { callback, error } = outcome.callbackFailure;
    const stop = { reason: 'callback-failed', evidence: { kind: 'error', error, callback } } as const;
    return failedRound(state, run, message, stop, outcome);
  }
  if (outcome.interrupted !== undefined && outcome.interrupted.length > 0) {
    return {
      state: {
        ...state,
        messages: extendHistory(run, state.messages, [message]),
        pending: outcome.interrupted,
        elapsedMs: elapsedOf(run),
      },
      decision: { type: 'interrupted', pending: outcome.interrupted },
    };
  }

  let toolMessages = outcome.toolMessages;
  let guard = state.guard;
  let loopStop: StopEvidence | undefined;
  if (run.guard !== undefined && guard !== undefined) {
    const guarded = guardRound({
      state: guard,
      config: run.guard,
      isWrite: (tool) => isWriteTool(run, tool),
      calls: message.toolCalls ?? [],
      results: outcome.results,
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
  const next: RunState = withoutPending({
    ...state,
    messages: extendHistory(run, state.messages, [message, ...toolMessages]),
    toolCalls: state.toolCalls + outcome.results.length,
    elapsedMs: elapsedOf(run),
    ...(guard === undefined ? {} : { guard }),
  });
  record(run, round, message, usage, outcome.results);

  if (outcome.aborted === true) return { state: next, decision: abortStop(run) };
  if (outcome.fatal !== undefined) {
    return {
      state: next,
      decision: {
        type: 'stopped',
        reason: 'tool-fatal',
        evidence: { kind: 'error', error: outcome.fatal.error },
      },
    };
  }
  if (outcome.storeFailure !== undefined) {
    return {
      state: next,
      decision: {
        type: 'stopped',
        reason: 'store-unavailable',
        evidence: { kind: 'error', error: outcome.storeFailure.error },
      },
    };
  }
  const limited = outcome.limited;
  if (limited?.limit !== undefined && run.runtime.policy.onLimitExceeded === 'throw') {
    const { scope, limit } = limited.limit;
    return {
      state: next,
      decision: {
        type: 'stopped',
        reason: 'tool-call-limit',
        evidence: { kind: 'limit', scope, tool: limited.toolName, limit },
      },
    };
  }
  if (loopStop !== undefined)
    return { state: next, decision: { type: 'stopped', reason: 'loop-detected', evidence: loopStop } };
  if (outcome.returnDirect) {
    return {
      state: next,
      decision: { type: 'completed', text: toolMessages.map((m) => m.content).join('\n') },
    };
  }
  return { state: next, decision: { type: 'continue' } };
}

/**
 * The chain could not finish the round (a callback failed, an unknown tool under `unknownTool: 'throw'`):
 * the calls it answered keep their messages and every other call gets one, so the history stays
 * well-formed. When the chain ran no call (it says so with no results), the others say so.
 */
function failedRound(
  state: RunState,
  run: RunContext,
  message: AssistantMessage,
  stop: { readonly reason: StopReason; readonly evidence: StopEvidence },
  partial: CallsOutcome,
  answer?: { readonly toolCallId: string; readonly content: string; readonly errorCode: string },
): StepResult {
  const answered = new Map<string, ToolMessage>();
  for (const toolMessage of partial.toolMessages) answered.set(toolMessage.toolCallId, toolMessage);
  const ranNone = partial.results.length === 0;
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
    const content = ranNone ? NOT_EXECUTED_TEXT : UNKNOWN_RESULT_TEXT;
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
  record(run, state.roundTrips, message, NO_USAGE, results);
  return {
    state: withoutPending({
      ...state,
      messages: extendHistory(run, state.messages, [message, ...toolMessages]),
      toolCalls: state.toolCalls + results.length,
      elapsedMs: elapsedOf(run),
    }),
    decision: { type: 'stopped', ...stop },
  };
}

/**
 * The message with every call id the history already holds replaced by a generated one (a model may reuse
 * `call_1` every round; ids are the keys of tool results and, later, of idempotent writes). The ids are
 * remembered. The message is copied only when an id changes.
 */
function withFreshIds(message: AssistantMessage, seen: Set<string>, newId: () => string): AssistantMessage {
  const calls = message.toolCalls;
  if (calls === undefined) return message;
  let renamed: ToolCall[] | undefined;
  for (const [index, call] of calls.entries()) {
    if (!seen.has(call.id)) continue;
    renamed ??= calls.slice();
    let id = newId();
    while (seen.has(id) || calls.some((other) => other.id === id)) id = newId();
    renamed[index] = { ...call, id };
  }
  const result = renamed === undefined ? message : { ...message, toolCalls: renamed };
  for (const call of result.toolCalls ?? []) seen.add(call.id);
  return result;
}

/**
 * The history with `added` appended. The run's own history array (made by the driver, or extended by an
 * earlier step of this run) is extended in place: the states in between never leave the driver, and a
 * copy per round would make a long run quadratic. Any other array is copied first, and the copy becomes
 * the run's own.
 */
function extendHistory(
  run: RunContext,
  messages: readonly Message[],
  added: readonly Message[],
): readonly Message[] {
  let history = messages as Message[];
  if (history !== run.history) {
    history = messages.slice();
    run.history = history;
  }
  for (const message of added) history.push(message);
  return history;
}

/** Keeps the working copies with the state they now belong to. */
function finish(run: RunContext, live: LiveRun, result: StepResult): StepResult {
  live.state = result.state;
  run.live = live;
  return result;
}

function record(
  run: RunContext,
  round: number,
  response: AssistantMessage,
  usage: TokenUsage,
  toolResults: readonly ToolCallResult[],
): void {
  run.steps.push({ round, response, usage, toolResults });
  for (const result of toolResults) run.toolResults.push(result);
  if (run.emit === undefined) return;
  const calls: StepCallSummary[] = toolResults.map((result) =>
    result.type === 'success'
      ? { toolCallId: result.toolCallId, toolName: result.toolName, type: 'success' }
      : {
          toolCallId: result.toolCallId,
          toolName: result.toolName,
          type: 'error',
          code: result.code,
          errorClass: result.errorClass,
        },
  );
  run.emit(
    run.includeContent
      ? { type: 'step-end', round, usage, calls, response, toolResults }
      : { type: 'step-end', round, usage, calls },
  );
}

function reportModelCall(
  run: RunContext,
  round: number,
  started: number,
  answer: Awaited<ReturnType<typeof callModel>>,
): void {
  const durationMs = run.now() - started;
  const usage = answer.type === 'callback-failed' ? NO_USAGE : answer.usage;
  const toolCalls = answer.type === 'answer' ? (answer.message.toolCalls?.length ?? 0) : 0;
  const base = { type: 'model-call-end', round, usage, durationMs, toolCalls } as const;
  if (answer.type === 'answer') {
    run.emit?.(run.includeContent ? { ...base, response: answer.message } : base);
    return;
  }
  const type = errorType(answer.error);
  run.emit?.(
    run.includeContent ? { ...base, errorType: type, error: answer.error } : { ...base, errorType: type },
  );
}

/** The stop for an aborted run: the time budget ran out, or the caller (or the stream's consumer) aborted. */
export function abortStop(run: RunContext): StepDecision {
  const cause = run.budget.cause();
  if (cause === 'time') {
    return {
      type: 'stopped',
      reason: 'budget-exhausted',
      evidence: {
        kind: 'ceiling',
        limit: 'time',
        max: run.config.stops.timeBudgetMs,
        used: Math.round(elapsedOf(run)),
      },
    };
  }
  return { type: 'stopped', reason: 'aborted', evidence: { kind: 'error', error: run.budget.signal.reason } };
}

function timed(state: RunState, run: RunContext): RunState {
  return { ...state, elapsedMs: elapsedOf(run) };
}
