import { pausedRound } from '../chain/paused-round.js';
import type { AssistantMessage, ToolCall } from '../core/message.js';
import { generatedCallId, type RunState, runStateWith } from '../core/run-state.js';
import { errorType } from '../core/tool-event.js';
import { abortStop } from './abort-stop.js';
import { addUsage } from './add-usage.js';
import { callModel } from './call-model.js';
import { elapsedOf, type LiveRun, type LoopContext, liveFor } from './loop-context.js';
import { NO_USAGE } from './normalize-response.js';
import { recordStep } from './record-step.js';
import { runRound } from './run-round.js';
import type { StepResult } from './step-decision.js';
import { checkStops } from './stop-conditions.js';

/**
 * One round of the loop: check the stop conditions, call the model, run its tool calls through the chain,
 * let the guard look at the round, decide. Takes a state and returns the next one (a new value; the one
 * passed in is not changed) with the decision. A paused state (`pending`) runs the waiting calls of its
 * round first, with the context's decisions. Never throws for a failure of the model, a tool or a callback: each is a
 * decision.
 */
export async function step(state: RunState, run: LoopContext): Promise<StepResult> {
  const live = liveFor(state, run);
  if (state.pending !== undefined) {
    // `restoreRunState` checked that the history ends with the paused round.
    const paused = pausedRound(state.messages);
    if (paused === undefined) throw new TypeError('a paused run state without its paused round');
    const before = runStateWith(state, { messages: state.messages.slice(0, paused.at) });
    return finish(run, live, await runRound(before, run, live, paused.assistant, NO_USAGE, paused));
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
  const spent = runStateWith(state, {
    roundTrips: round,
    usage: answer.type === 'CALLBACK_FAILED' ? state.usage : addUsage(state.usage, answer.usage),
    nextCallId,
    elapsedMs: elapsedOf(run),
  });
  switch (answer.type) {
    case 'CALLBACK_FAILED':
      return finish(run, live, {
        state: spent,
        decision: {
          type: 'stopped',
          reason: 'CALLBACK_FAILED',
          evidence: { kind: 'error', error: answer.error, callback: 'wrapModelCall' },
        },
      });
    case 'failed':
      return finish(run, live, {
        state: spent,
        decision: run.budget.signal.aborted
          ? abortStop(run)
          : {
              type: 'stopped',
              reason: 'MODEL_ERROR',
              evidence: {
                kind: 'error',
                error: answer.error,
                ...(answer.failure === undefined ? {} : { model: answer.failure }),
              },
            },
      });
    case 'answer': {
      if (message === undefined) throw new TypeError('an answer without its message');
      if (message.toolCalls === undefined || message.toolCalls.length === 0) {
        recordStep(run, round, message, answer.usage, []);
        const next = runStateWith(spent, { messages: state.messages.concat(message) });
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

/** Keeps the working copies with the state they now belong to. */
function finish(run: LoopContext, live: LiveRun, result: StepResult): StepResult {
  live.state = result.state;
  run.live = live;
  return result;
}

function reportModelCall(
  run: LoopContext,
  round: number,
  started: number,
  answer: Awaited<ReturnType<typeof callModel>>,
): void {
  const durationMs = run.now() - started;
  const usage = answer.type === 'CALLBACK_FAILED' ? NO_USAGE : answer.usage;
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

function timed(state: RunState, run: LoopContext): RunState {
  return runStateWith(state, { elapsedMs: elapsedOf(run) });
}
