import { CallbackError } from '../core/errors/callback-error.js';
import { StoreError } from '../core/errors/store-error.js';
import type { GuardState } from '../core/guard-state.js';
import { EMPTY_GUARD_STATE } from '../core/guard-state.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { AwaitingCall } from '../core/run-event.js';
import { generatedCallId, type PendingCall, type RunState, runStateWith } from '../core/run-state.js';
import { stopEvidenceSummary } from '../core/stop-evidence-summary.js';
import type { Store } from '../core/store.js';
import { errorType } from '../core/tool-event.js';
import { startRequest } from '../guard/loop-guard.js';
import { abortStop } from './abort-stop.js';
import { addUsage } from './add-usage.js';
import { boundedCall } from './bounded-call.js';
import { effectOf, type LoopContext } from './loop-context.js';
import { type ClaimedRun, finishRun, savePendingRun } from './pending-run.js';
import { type LoadedGuard, loadSessionGuard, saveSessionGuard } from './session-guard.js';
import { step } from './step.js';
import type { StepDecision, StepResult } from './step-decision.js';
import { stopText, wastedRoundTrips } from './stop-text.js';
import { withRunWrapper } from './wrap-run.js';
import { writesDone } from './writes-done.js';

type Failure = { readonly callback: string; readonly error: unknown };

/**
 * Drives a run to its end: load the session's guard, `step` until the decision is not `continue`, turn
 * the decision into the outcome (a stop gets its text), save the guard and the run's record (an
 * interrupted run is kept in the store for its decisions; a run a resume `claimed` that ended is marked
 * done), report. The outcome is a value in every case; when a callback the caller passed failed, or the
 * record could not be written, the run rejects with `CallbackError` carrying it (and the guard and the
 * record are still saved). All of it runs inside the caller's `wrapRun`, when there is one.
 */
export function driveRun(
  initial: RunState,
  run: LoopContext,
  resumed: boolean,
  claimed?: ClaimedRun,
): Promise<LoopOutcome> {
  const wrapped = {
    runId: initial.runId,
    sessionId: initial.sessionId,
    turnId: initial.turnId,
    resumed,
  };
  return withRunWrapper(run.options.wrapRun, wrapped, () => drive(initial, run, resumed, claimed));
}

async function drive(
  initial: RunState,
  run: LoopContext,
  resumed: boolean,
  claimed: ClaimedRun | undefined,
): Promise<LoopOutcome> {
  const { store } = run.runtime.policy;
  const sessionId = initial.sessionId;
  const guarded = run.config.stops.guard !== undefined;
  run.emit?.({
    type: 'run-start',
    runId: initial.runId,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(initial.turnId === undefined ? {} : { turnId: initial.turnId }),
    resumed,
    maxRoundTrips: run.config.stops.maxRoundTrips,
  });
  let failure: Failure | undefined;
  let outcome: LoopOutcome;
  let state = initial;
  let loaded: LoadedGuard | undefined;
  try {
    let result: StepResult | undefined;
    if (sessionId !== undefined && guarded) {
      try {
        loaded = await loadSessionGuard(store, sessionId, run);
        state = runStateWith(state, { guard: loaded.state });
      } catch (error) {
        const outage = StoreError.isInstance(error) && !run.budget.signal.aborted;
        const failedOpen = outage && run.runtime.policy.onStoreFailure === 'open';
        if (outage) reportStoreFailure(run, 'guard-load', failedOpen, error);
        if (!failedOpen) result = { state, decision: loadFailure(run, error) };
      }
    }
    if (guarded && result === undefined) {
      // A new run is a new request of the session (new context for the guard); a resumed one goes on.
      const memory = state.guard ?? EMPTY_GUARD_STATE;
      state = runStateWith(state, { guard: resumed ? memory : startRequest(memory) });
    }
    result ??= await step(state, run);
    while (result.decision.type === 'continue') result = await step(result.state, run);
    const settled = await settle(result.state, result.decision, run);
    outcome = settled.outcome;
    failure = settled.failure;
    state = outcome.state;
    if (loaded !== undefined && sessionId !== undefined && state.guard !== undefined) {
      // Saved whatever failed before (not `failure ??= await ...`, which would skip the save).
      const saveFailure = await saveGuard(store, sessionId, loaded, state.guard, run);
      failure ??= saveFailure;
    }
    if (outcome.type === 'interrupted' || claimed !== undefined || initial.pending !== undefined) {
      const recordFailure = await saveRecord(store, outcome, run, claimed);
      failure ??= recordFailure;
    }
  } finally {
    run.budget.dispose();
  }
  run.emit?.({
    type: 'run-end',
    runId: state.runId,
    outcome: outcome.type,
    ...(outcome.type === 'stopped'
      ? { reason: outcome.reason, evidence: stopEvidenceSummary(outcome.evidence) }
      : {}),
    ...(outcome.type === 'interrupted' ? { awaiting: outcome.pending.map(awaitingCall) } : {}),
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

function awaitingCall(call: PendingCall): AwaitingCall {
  const { toolCallId, toolName, argumentsSummary, argumentsDigest, reason } = call;
  return {
    toolCallId,
    toolName,
    argumentsSummary,
    argumentsDigest,
    ...(reason === undefined ? {} : { reason }),
  };
}

/** How a run ends when the session's guard memory could not be loaded. */
function loadFailure(run: LoopContext, error: unknown): StepDecision {
  if (run.budget.signal.aborted) return abortStop(run);
  return StoreError.isInstance(error)
    ? { type: 'stopped', reason: 'STORE_UNAVAILABLE', evidence: { kind: 'error', error } }
    : {
        type: 'stopped',
        reason: 'CALLBACK_FAILED',
        evidence: { kind: 'error', error, callback: 'store.get' },
      };
}

function reportStoreFailure(
  run: LoopContext,
  operation: 'guard-load' | 'guard-save',
  failedOpen: boolean,
  error: unknown,
): void {
  run.emit?.({
    type: 'store-fail',
    operation,
    failedOpen,
    errorType: errorType(error),
    ...(run.includeContent ? { error } : {}),
  });
}

/**
 * Saves the guard's memory. The save is started even when the run is already past its deadline (a stopped
 * or aborted run still keeps what its guard learnt), but the run does not wait for it past the deadline
 * (its time budget, or the caller's abort): a save still going then finishes in the background, and a
 * failure of it then is dropped. Within the deadline, a save that fails or takes longer than the callback
 * timeout is the run's failure, unless the store reported an outage (`StoreError`): then a `store-fail`
 * event says so and the outcome stands.
 */
async function saveGuard(
  store: Store,
  sessionId: string,
  loaded: LoadedGuard,
  guard: GuardState,
  run: LoopContext,
): Promise<Failure | undefined> {
  return persist(
    run,
    () => saveSessionGuard(store, sessionId, loaded, guard, run),
    (error) => {
      // The store is down: what this request's guard learnt is lost, the outcome stands.
      reportStoreFailure(run, 'guard-save', false, error);
      return undefined;
    },
  );
}

/**
 * Keeps an interrupted run for its decisions, or marks a resumed pause done (by compare-and-set on the
 * claim, when its resume claimed it), as `saveGuard` saves (bounded by the deadline). A record that cannot
 * be written is the run's failure, an outage too: a paused run that is not kept cannot be resumed by its
 * id (the outcome's `state` still can be).
 */
function saveRecord(
  store: Store,
  outcome: LoopOutcome,
  run: LoopContext,
  claimed: ClaimedRun | undefined,
): Promise<Failure | undefined> {
  const options = { timeoutMs: run.config.callbackTimeoutMs, ttlMs: run.config.approvalTtlMs };
  return persist(
    run,
    () =>
      outcome.type === 'interrupted'
        ? savePendingRun(store, outcome.state, { ...options, claimed })
        : finishRun(store, outcome.state.runId, claimed, outcome.type, options),
    (error) => ({ callback: 'store.set', error }),
  );
}

/** Waits for a save within the run's deadline; a failure is the run's, but for an outage, which `outage` decides. */
async function persist(
  run: LoopContext,
  save: () => Promise<void>,
  outage: (error: StoreError) => Failure | undefined,
): Promise<Failure | undefined> {
  const saving = save();
  saving.catch(() => {});
  try {
    await boundedCall(() => saving, { timeoutMs: run.config.callbackTimeoutMs, signal: run.budget.signal });
    return undefined;
  } catch (error) {
    if (run.budget.signal.aborted) return undefined;
    return StoreError.isInstance(error) ? outage(error) : { callback: 'store.set', error };
  }
}

/** The outcome of a decision that ends the run. */
async function settle(
  state: RunState,
  decision: Exclude<StepDecision, { type: 'continue' }>,
  run: LoopContext,
): Promise<{ outcome: LoopOutcome; failure?: Failure }> {
  switch (decision.type) {
    case 'completed':
      return { outcome: { type: 'completed', text: decision.text, ...totals(state, run) } };
    case 'interrupted':
      return { outcome: { type: 'interrupted', pending: decision.pending, ...totals(state, run) } };
    case 'stopped': {
      const { reason, evidence } = decision;
      let nextCallId = state.nextCallId;
      const done = writesDone(state.messages, (tool) => effectOf(run, tool), run.toolResults);
      const text = await stopText({ reason, evidence, messages: state.messages, ...done }, run, {
        round: state.roundTrips + 1,
        newId: () => generatedCallId(state.runId, nextCallId++),
      });
      const final = runStateWith(state, {
        messages: text.finalMessage === undefined ? state.messages : [...state.messages, text.finalMessage],
        roundTrips: text.askedModel ? state.roundTrips + 1 : state.roundTrips,
        usage: text.usage === undefined ? state.usage : addUsage(state.usage, text.usage),
        nextCallId,
      });
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

function totals(state: RunState, run: LoopContext) {
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
