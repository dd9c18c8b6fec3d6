import { CallbackError } from '../errors/callback-error.js';
import { EMPTY_GUARD_STATE } from '../guard/guard-types.js';
import { startRequest } from '../guard/loop-guard.js';
import type { Store } from '../store/store.js';
import { abortStop } from './abort-stop.js';
import { addUsage } from './add-usage.js';
import { boundedCall } from './bounded-call.js';
import type { LoopOutcome } from './loop-outcome.js';
import { type ClaimedRun, finishClaimedRun, savePendingRun } from './pending-run.js';
import { isWriteTool, type RunContext } from './run-context.js';
import { generatedCallId, type RunState } from './run-state.js';
import { type LoadedGuard, loadSessionGuard, saveSessionGuard } from './session-guard.js';
import { type StepDecision, type StepResult, step } from './step.js';
import { stopText, wastedRoundTrips } from './stop-text.js';
import { writesDone } from './writes-done.js';

type Failure = { readonly callback: string; readonly error: unknown };

/**
 * Drives a run to its end: load the session's guard, `step` until the decision is not `continue`, turn
 * the decision into the outcome (a stop gets its text), save the guard and, with a store, the run's
 * record (an interrupted run is kept for its decisions; a claimed run that ended is marked done), report.
 * The outcome is a value in every case; when a callback the caller passed failed, the run rejects with
 * `CallbackError` carrying it (and the guard and the record are still saved).
 */
export async function driveRun(
  initial: RunState,
  run: RunContext,
  resumed: boolean,
  claimed?: ClaimedRun,
): Promise<LoopOutcome> {
  const { store } = run.options;
  const sessionId = initial.sessionId;
  const guarded = run.config.stops.guard !== undefined;
  run.emit?.({
    type: 'run-start',
    runId: initial.runId,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(initial.turnId === undefined ? {} : { turnId: initial.turnId }),
    resumed,
  });
  let failure: Failure | undefined;
  let outcome: LoopOutcome;
  let state = initial;
  let loaded: LoadedGuard | undefined;
  try {
    let result: StepResult | undefined;
    if (store !== undefined && sessionId !== undefined && guarded) {
      try {
        loaded = await loadSessionGuard(store, sessionId, run);
        state = { ...state, guard: loaded.state };
      } catch (error) {
        result = {
          state,
          decision: run.budget.signal.aborted
            ? abortStop(run)
            : {
                type: 'stopped',
                reason: 'callback-failed',
                evidence: { kind: 'error', error, callback: 'store.get' },
              },
        };
      }
    }
    if (guarded && result === undefined) {
      // A new run is a new request of the session (new context for the guard); a resumed one goes on.
      const memory = state.guard ?? EMPTY_GUARD_STATE;
      state = { ...state, guard: resumed ? memory : startRequest(memory) };
    }
    result ??= await step(state, run);
    while (result.decision.type === 'continue') result = await step(result.state, run);
    const settled = await settle(result.state, result.decision, run);
    outcome = settled.outcome;
    failure = settled.failure;
    state = outcome.state;
    const guard = state.guard;
    if (loaded !== undefined && store !== undefined && sessionId !== undefined && guard !== undefined) {
      // Saved whatever failed before (not `failure ??= await ...`, which would skip the save).
      const memory = loaded;
      const saveFailure = await persist(run, () => saveSessionGuard(store, sessionId, memory, guard, run));
      failure ??= saveFailure;
    }
    if (store !== undefined && (outcome.type === 'interrupted' || claimed !== undefined)) {
      const ended = outcome;
      const saveFailure = await persist(run, () => saveRecord(store, ended, run, claimed));
      failure ??= saveFailure;
    }
  } finally {
    run.budget.dispose();
  }
  run.emit?.({
    type: 'run-end',
    runId: state.runId,
    outcome: outcome.type,
    ...(outcome.type === 'stopped' ? { reason: outcome.reason } : {}),
    roundTrips: outcome.roundTrips,
    toolCalls: outcome.toolCalls,
    usage: outcome.usage,
    ...(run.includeContent ? { result: outcome } : {}),
  });
  if (failure !== undefined) {
    throw new CallbackError({
      callback: failure.callback,
      cause: failure.error,
      outcome,
      message: `The ${failure.callback} callback failed; the outcome so far is on this error's outcome.`,
    });
  }
  return outcome;
}

/** Keeps an interrupted run for its decisions, or marks the claimed run done. */
function saveRecord(
  store: Store,
  outcome: LoopOutcome,
  run: RunContext,
  claimed: ClaimedRun | undefined,
): Promise<void> {
  const options = { timeoutMs: run.config.callbackTimeoutMs, ttlMs: run.config.approvalTtlMs };
  if (outcome.type === 'interrupted') return savePendingRun(store, outcome.state, { ...options, claimed });
  if (claimed === undefined) return Promise.resolve();
  return finishClaimedRun(store, claimed, outcome.type, options);
}

/**
 * Runs a save (the guard's memory, the run's record). It is started even when the run is already past its
 * deadline (a stopped or aborted run still keeps what its guard learnt), but the run does not wait for it
 * past the deadline (its time budget, or the caller's abort): a save still going then finishes in the
 * background, and a failure of it then is dropped. Within the deadline, a save that fails or takes longer
 * than the callback timeout is the run's failure.
 */
async function persist(run: RunContext, save: () => Promise<void>): Promise<Failure | undefined> {
  const saving = save();
  saving.catch(() => {});
  try {
    await boundedCall(() => saving, { timeoutMs: run.config.callbackTimeoutMs, signal: run.budget.signal });
    return undefined;
  } catch (error) {
    return run.budget.signal.aborted ? undefined : { callback: 'store.set', error };
  }
}

/** The outcome of a decision that ends the run. */
async function settle(
  state: RunState,
  decision: Exclude<StepDecision, { type: 'continue' }>,
  run: RunContext,
): Promise<{ outcome: LoopOutcome; failure?: Failure }> {
  switch (decision.type) {
    case 'completed':
      return { outcome: { type: 'completed', text: decision.text, ...totals(state, run) } };
    case 'interrupted':
      return { outcome: { type: 'interrupted', pending: decision.pending, ...totals(state, run) } };
    case 'stopped': {
      const { reason, evidence } = decision;
      let nextCallId = state.nextCallId;
      const writes = writesDone(state.messages, (tool) => isWriteTool(run, tool));
      const text = await stopText({ reason, evidence, messages: state.messages, writes }, run, {
        round: state.roundTrips + 1,
        newId: () => generatedCallId(state.runId, nextCallId++),
      });
      const final: RunState = {
        ...state,
        messages: text.finalMessage === undefined ? state.messages : [...state.messages, text.finalMessage],
        roundTrips: text.askedModel ? state.roundTrips + 1 : state.roundTrips,
        usage: text.usage === undefined ? state.usage : addUsage(state.usage, text.usage),
        nextCallId,
      };
      const outcome: LoopOutcome = {
        type: 'stopped',
        reason,
        evidence,
        text: text.text,
        wastedRoundTrips: wastedRoundTrips(evidence),
        ...totals(final, run),
      };
      const failure: Failure | undefined =
        evidence.kind === 'error' && evidence.callback !== undefined
          ? { callback: evidence.callback, error: evidence.error }
          : text.failure;
      return failure === undefined ? { outcome } : { outcome, failure };
    }
    default: {
      const unreachable: never = decision;
      throw new TypeError(`unknown decision ${String(unreachable)}`);
    }
  }
}

function totals(state: RunState, run: RunContext) {
  return {
    runId: state.runId,
    messages: state.messages,
    steps: run.steps,
    usage: state.usage,
    roundTrips: state.roundTrips,
    toolCalls: state.toolCalls,
    toolResults: run.toolResults,
    state,
  };
}
