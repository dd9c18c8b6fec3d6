import { type SettledDecision, settleDecisions } from '../chain/resume-decision.js';
import type { ToolRuntime } from '../chain/runtime.js';
import type { StateIds } from '../chain/runtime-input.js';
import { DEFAULT_RESUME_CLAIM_LEASE_MS } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { RunState } from '../core/run-state.js';
import { driveRun } from './drive-run.js';
import { loopRuntime } from './loop-input.js';
import {
  type ResolvedLoopOptions,
  type ResumeLoopOptions,
  resolveLoopOptions,
  type StoredResumeOptions,
} from './loop-options.js';
import { type ClaimedRun, claimPendingRun, readPendingRun } from './pending-run.js';
import { restoreRunState } from './restore-run-state.js';
import { createRunContext } from './run-context.js';
import { throwOnStop } from './run-tool-loop.js';

/**
 * Continues a run in this process or any other: a saved state (its `RunState`, or the JSON text of one),
 * or, with one argument, the run kept in the store under `runId` (an interrupted run is kept in the
 * runtime's store). A paused run first runs the waiting calls of its round: an approved call runs without
 * asking `beforeToolCall` or `needsApproval` again (`authorize` is asked: an approval grants no permission),
 * a refused one is denied (the model is told only that it is not permitted), an undecided one is asked
 * again. The calls of the round that ran before do not run again.
 *
 * Everything is checked before anything runs, and nothing of a refused resume is applied: a state that is
 * malformed, of another version or tampered with is `RunStateError`; an unknown run, an expired approval,
 * a decision for a call that does not wait, or an approval whose `argumentsDigest` is not its call's is
 * `ApprovalError`. A run resumed by its id is claimed in the store by compare-and-set before it runs: of two
 * resumes at once exactly one runs it, and the other, like any replay after it, is `ApprovalError`
 * (`already-resumed`); its approvals must name the digest. A claim holds for a lease (see
 * `resumeClaimLease`): one whose resume neither finished nor paused the run again by then (its process
 * died) is taken over by the next resume. A state you pass is yours: resuming it twice
 * repeats its round (an approved write runs once: the second is a replay of its idempotency record), and
 * when such a resume ends, the store's record of the run is marked done, so it is not resumed by id again.
 */
export async function resumeToolLoop(
  saved: RunState | string,
  options: ResumeLoopOptions,
): Promise<LoopOutcome>;
export async function resumeToolLoop(options: StoredResumeOptions): Promise<LoopOutcome>;
export async function resumeToolLoop(
  first: RunState | string | StoredResumeOptions,
  second?: ResumeLoopOptions,
): Promise<LoopOutcome> {
  if (second === undefined) return resumeStored(first as StoredResumeOptions);
  const state = restoreRunState(first);
  const { runtime, config } = prepare(second, 'resumeToolLoop', state);
  checkSession(second, state);
  const decisions = readDecisions(second.decisions, state, false);
  return drive(state, second, runtime, config, decisions, undefined);
}

/** The stored form: read the run, check the decisions against it, claim it, run it. */
async function resumeStored(options: StoredResumeOptions): Promise<LoopOutcome> {
  if (
    typeof options === 'object' &&
    options !== null &&
    options.runtime === undefined &&
    options.store === undefined
  ) {
    throw new InvalidOptionsError({
      option: 'store',
      message: 'is required to resume a run by its id (or a runtime whose store keeps it)',
    });
  }
  // The one-off form has its store (above): the ids of the run read from it need no other check.
  const { runtime, config } = prepare(options, 'resumeStored', {});
  const { runId } = options;
  if (typeof runId !== 'string' || runId === '' || runId.length > 200) {
    throw new InvalidOptionsError({ option: 'runId', message: 'must be the id of an interrupted run' });
  }
  const store = runtime.policy.store;
  const stored = await readPendingRun(store, runId, storeCalls(options, config));
  checkSession(options, stored.state);
  const decisions = readDecisions(options.decisions, stored.state, true);
  const claimed = await claimPendingRun(store, stored, {
    ...storeCalls(options, config),
    leaseMs: resumeClaimLease(config),
  });
  return drive(stored.state, options, runtime, config, decisions, claimed);
}

/**
 * Every option checked before the store is asked anything: the runtime (given, or built from `tools` and
 * the policy: its store is the one the run is kept in; see `loopRuntime`) and the loop's options.
 */
function prepare(
  options: ResumeLoopOptions,
  form: 'resumeToolLoop' | 'resumeStored',
  ids: StateIds,
): { runtime: ToolRuntime; config: ResolvedLoopOptions } {
  const runtime = loopRuntime(options, form, ids);
  return { runtime, config: resolveLoopOptions(options) };
}

async function drive(
  state: RunState,
  options: ResumeLoopOptions,
  runtime: ToolRuntime,
  config: ResolvedLoopOptions,
  decisions: ReadonlyMap<string, SettledDecision> | undefined,
  claimed: ClaimedRun | undefined,
): Promise<LoopOutcome> {
  const run = createRunContext(options, runtime, state, { listener: options.onEvent, decisions, config });
  return throwOnStop(options, await driveRun(state, run, true, claimed));
}

function checkSession(options: ResumeLoopOptions, state: RunState): void {
  if (options.sessionId !== undefined && options.sessionId !== state.sessionId) {
    throw new InvalidOptionsError({
      option: 'sessionId',
      message: 'differs from the saved run state; leave it out',
    });
  }
}

/**
 * How long a resume's claim holds: its time budget and the time to write the run's record after it, or
 * `DEFAULT_RESUME_CLAIM_LEASE_MS` without a budget. A resume still running past it may be overtaken.
 */
function resumeClaimLease(config: ResolvedLoopOptions): number {
  const budget = config.stops.timeBudgetMs;
  return Number.isFinite(budget) ? budget + config.callbackTimeoutMs : DEFAULT_RESUME_CLAIM_LEASE_MS;
}

/** The store calls before the run: bounded by the callback timeout and the caller's signal. */
function storeCalls(options: ResumeLoopOptions, config: ResolvedLoopOptions) {
  return { timeoutMs: config.callbackTimeoutMs, signal: options.signal, ttlMs: config.approvalTtlMs };
}

function readDecisions(
  decisions: ResumeLoopOptions['decisions'],
  state: RunState,
  requireDigest: boolean,
): ReadonlyMap<string, SettledDecision> | undefined {
  if (decisions === undefined) return undefined;
  let entries: [string, unknown][] | undefined;
  if (typeof decisions === 'object' && decisions !== null && !Array.isArray(decisions)) {
    try {
      entries = Object.entries(decisions);
    } catch {
      // A Proxy whose traps throw: refused below.
    }
  }
  if (entries === undefined) {
    throw new InvalidOptionsError({
      option: 'decisions',
      message: 'must be an object of call id to decision',
    });
  }
  return settleDecisions(entries, state.pending ?? [], {
    option: 'decisions',
    strict: true,
    requireDigest,
    runId: state.runId,
  });
}
