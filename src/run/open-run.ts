import { type SettledDecision, settleDecisions } from '../chain/resume-decision.js';
import type { ResolvedRuntime } from '../chain/runtime.js';
import { DEFAULT_RESUME_CLAIM_LEASE_MS } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { createRunState, type RunState } from '../core/run-state.js';
import { checkLoopOptionNames, loopRuntime } from './loop-input.js';
import {
  type ResolvedLoopOptions,
  type RunOptions,
  resolveLoopOptions,
  type StoredRunRef,
} from './loop-options.js';
import { type ClaimedRun, claimPendingRun, readPendingRun } from './pending-run.js';
import { restoreRunState } from './restore-run-state.js';

/** A run ready to drive: its first state, its runtime and resolved options, and, when it goes on from a paused run, the decisions and the claim. */
export interface OpenedRun {
  readonly state: RunState;
  readonly runtime: ResolvedRuntime;
  readonly config: ResolvedLoopOptions;
  /** Whether the run goes on `from` an earlier one. */
  readonly resumed: boolean;
  readonly decisions?: ReadonlyMap<string, SettledDecision> | undefined;
  /** The claim on a run read from the store (`from: { runId }`). */
  readonly claimed?: ClaimedRun | undefined;
}

/**
 * Checks a run's options and finds where it starts: a new run over `messages`, or `from` a run to go on
 * with. A run goes on in this process or any other: a saved state (its `RunState`, or the JSON text of one),
 * or `{ runId }`, the run kept in the runtime's store (an interrupted run is kept there). A paused run first
 * runs the waiting calls of its round: an approved call runs without asking `beforeToolCall` or
 * `needsApproval` again (`authorize` is asked: an approval grants no permission), a refused one is denied
 * (the model is told only that it is not permitted), an undecided one is asked again. The calls of the
 * round that ran before do not run again.
 *
 * Everything is checked before anything runs, and nothing of a refused resume is applied: a state that is
 * malformed, of another version or tampered with is `RunStateError`; an unknown run, an expired approval,
 * a decision for a call that does not wait, or an approval whose `argumentsDigest` is not its call's is
 * `ApprovalError`. A run resumed by its id is claimed in the store by compare-and-set before it runs: of two
 * resumes at once exactly one runs it, and the other, like any replay after it, is `ApprovalError`
 * (`already-resumed`); its approvals must name the digest. A claim holds for a lease (see
 * `resumeClaimLease`): one whose resume neither finished nor paused the run again by then (its process
 * died) is taken over by the next resume. A state you pass is yours: resuming it twice repeats its round
 * (an approved write runs once: the second is a replay of its idempotency record), and when such a resume
 * ends, the store's record of the run is marked done, so it is not resumed by id again.
 */
export async function openRun(
  options: RunOptions,
  form: 'runToolLoop' | 'streamToolLoop',
): Promise<OpenedRun> {
  checkLoopOptionNames(options, form);
  const { from } = options;
  if (from === undefined) {
    if (options.decisions !== undefined) {
      throw new InvalidOptionsError({
        option: 'decisions',
        message: 'are for the calls a paused run waits on: give the run as from (its state, or { runId })',
      });
    }
    const runtime = loopRuntime(options, form, options);
    if (!Array.isArray(options.messages)) {
      throw new InvalidOptionsError({ option: 'messages', message: 'must be an array of messages' });
    }
    const state = createRunState({
      messages: options.messages,
      sessionId: options.sessionId,
      turnId: options.turnId,
    });
    return { state, runtime, config: resolveLoopOptions(options), resumed: false };
  }
  if (options.messages !== undefined) {
    throw new InvalidOptionsError({
      option: 'messages',
      message: 'starts a new run; a run given as from goes on with its own history (leave messages out)',
    });
  }
  if (isStoredRunRef(from)) return openStored(options, from, form);
  const state = restoreRunState(from);
  const runtime = loopRuntime(options, form, state);
  const config = resolveLoopOptions(options);
  checkSession(options, state);
  const decisions = readDecisions(options.decisions, state, false);
  return { state, runtime, config, resumed: true, decisions };
}

/** `from: { runId }`: read the run from the runtime's store, check the decisions against it, claim it. */
async function openStored(
  options: RunOptions,
  from: StoredRunRef,
  form: 'runToolLoop' | 'streamToolLoop',
): Promise<OpenedRun> {
  if (options.runtime === undefined) {
    throw new InvalidOptionsError({
      option: 'from',
      message:
        'a run given by its id is read from the runtime store that keeps it: pass the runtime made by createToolRuntime({ tools, store }), not tools alone',
    });
  }
  // The ids of the run read from the store need no check: the runtime has the store that keeps it.
  const runtime = loopRuntime(options, form, {});
  const config = resolveLoopOptions(options);
  const { runId } = from;
  if (typeof runId !== 'string' || runId === '' || runId.length > 200) {
    throw new InvalidOptionsError({ option: 'from', message: 'runId must be the id of an interrupted run' });
  }
  const store = runtime.policy.store;
  const stored = await readPendingRun(store, runId, storeCalls(options, config));
  checkSession(options, stored.state);
  const decisions = readDecisions(options.decisions, stored.state, true);
  const claimed = await claimPendingRun(store, stored, {
    ...storeCalls(options, config),
    leaseMs: resumeClaimLease(config),
  });
  return { state: stored.state, runtime, config, resumed: true, decisions, claimed };
}

/** `{ runId }` and nothing else: a reference to a run in the store (a `RunState` has more fields). */
function isStoredRunRef(from: unknown): from is StoredRunRef {
  if (typeof from !== 'object' || from === null || Array.isArray(from)) return false;
  const keys = Object.keys(from);
  return keys.length === 1 && keys[0] === 'runId';
}

function checkSession(options: RunOptions, state: RunState): void {
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
function storeCalls(options: RunOptions, config: ResolvedLoopOptions) {
  return { timeoutMs: config.callbackTimeoutMs, signal: options.signal, ttlMs: config.approvalTtlMs };
}

function readDecisions(
  decisions: RunOptions['decisions'],
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
