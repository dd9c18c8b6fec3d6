import { createHash, randomUUID } from 'node:crypto';
import { DEFAULT_CALLBACK_TIMEOUT_MS } from '../core/defaults.js';
import { ApprovalError } from '../core/errors/approval-error.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { RunStateError } from '../core/errors/run-state-error.js';
import { StoreError } from '../core/errors/store-error.js';
import type { PendingCall, RunState } from '../core/run-state.js';
import type { Store } from '../core/store.js';
import { canonicalJson } from '../serialize/canonical-json.js';
import { storeDeadline } from '../store/store-deadline.js';
import { storeKey } from '../store/store-key.js';
import { boundedCall } from './bounded-call.js';
import { restoreRunState } from './restore-run-state.js';

/** The store key of a run kept for its decisions (a run is one key; its id is the hash tag). */
export function runStateKey(runId: string): string {
  return storeKey(runId, 'run');
}

/**
 * What a store keeps under a run's key: `pending` (paused, taking decisions until `expiresAt`), `resuming`
 * (claimed by one resume, `claimedBy`, until `claimedUntil`: nobody else may resume it before then; after
 * it, the claim is abandoned and a later resume takes it over; a claim written before claims had a lease
 * holds forever), `done` (resumed to its end: a replay is refused).
 */
type RunRecord =
  | (PausedRecord & { readonly status: 'pending' })
  | (PausedRecord & {
      readonly status: 'resuming';
      /** A random id of the resume that holds the claim. */
      readonly claimedBy?: string;
      /** The `Date.now()` from which the claim is abandoned. */
      readonly claimedUntil?: number;
    })
  | { readonly status: 'done'; readonly outcome: string };

interface PausedRecord {
  readonly expiresAt: number;
  readonly state: unknown;
  /** The digest of the state as the run wrote it (`stateDigest`): the record is read whole or not at all. */
  readonly binding: string;
}

/**
 * The SHA-256 of a state's canonical JSON. A paused record whose state does not give its binding was changed
 * by something other than the run that wrote it (a call and a pending entry added by hand, another program
 * rewriting the record) and is refused whole. It is no signature: whoever may write the store may write a
 * matching binding too, so the store's own access control still decides who may write paused runs.
 */
function stateDigest(state: unknown): string {
  // Through JSON first: a store that keeps objects (memory) and one that keeps text (SQLite, Redis) must
  // give one digest, whatever undefined fields a hook's payload held.
  return createHash('sha256')
    .update(canonicalJson(JSON.parse(JSON.stringify(state))))
    .digest('hex');
}

/** A paused run read from a store, not claimed yet. */
export type StoredRun = Awaited<ReturnType<typeof readPendingRun>>;

/** Characters of a run id, at most (ids are UUIDs; a longer one is not one of ours). */
const MAX_RUN_ID_CHARS = 200;

/** A run claimed by one resume: only that resume writes its record from now on. */
export interface ClaimedRun {
  readonly key: string;
  readonly version: number;
  /** The claim's random id (`claimedBy` in the record). */
  readonly claim: string;
}

/** Options of a read of the store: a deadline and a signal. */
export type StoreCallOptions = NonNullable<Parameters<typeof readPendingRun>[2]>;

/**
 * The paused run kept under `runId`, checked to take decisions: refused with `ApprovalError` when the store
 * holds none (`unknown-run`), its window is over (`expired`) or a resume claimed it already and still holds
 * the claim (`already-resumed`); a run whose resume abandoned its claim (its lease passed) is read as paused. A record toolwarden did not write is a `StoreError` (`corrupt`), a tampered state a
 * `RunStateError`. What an approver shows a person: `pending`.
 */
export async function readPendingRun(
  store: Store,
  runId: string,
  /** Options of the read: a deadline and a signal. */
  options: {
    /** A store call that takes longer fails (default `DEFAULT_CALLBACK_TIMEOUT_MS`). */
    readonly timeoutMs?: number;
    readonly signal?: AbortSignal | undefined;
  } = {},
): Promise<{
  readonly runId: string;
  readonly state: RunState;
  /** The calls that wait for a decision, each with its summary and its digest. */
  readonly pending: readonly PendingCall[];
  /** The `Date.now()` from which the run takes no more decisions. */
  readonly expiresAt: number;
  /** The entry's version: the claim is a compare-and-set on it. */
  readonly version: number;
  /** The record's binding, kept by the claim. */
  readonly binding: string;
}> {
  // The public entry: the same answers as `runToolLoop({ from: { runId } })` for a bad id or store, never a raw TypeError.
  if (typeof runId !== 'string' || runId === '' || runId.length > MAX_RUN_ID_CHARS) {
    throw new InvalidOptionsError({ option: 'runId', message: 'must be the id of an interrupted run' });
  }
  if (typeof store !== 'object' || store === null || typeof store.get !== 'function') {
    throw new InvalidOptionsError({ option: 'store', message: 'must be a Store (get, set, delete, ...)' });
  }
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError({
      option: 'options',
      message: 'must be an object ({ timeoutMs?, signal? })',
    });
  }
  const entry = await bounded(() => store.get(runStateKey(runId)), options);
  if (entry === undefined) {
    throw new ApprovalError({ reason: 'unknown-run', runId, message: 'the store holds no run by that id' });
  }
  const record = readRecord(entry.value);
  if (record.status !== 'done' && stateDigest(record.state) !== record.binding) {
    throw new RunStateError({
      reason: 'tampered',
      message: 'the paused record is not the one the run wrote: its state was changed after it was kept',
    });
  }
  if (record.status === 'done' || (record.status === 'resuming' && !claimAbandoned(record))) {
    throw new ApprovalError({
      reason: 'already-resumed',
      runId,
      message:
        record.status === 'done'
          ? 'the run was resumed to its end already'
          : `another resume claimed it${claimHeldUntil(record)}`,
    });
  }
  if (record.expiresAt <= Date.now()) {
    throw new ApprovalError({ reason: 'expired', runId, message: 'its approval window is over' });
  }
  const state = restoreRunState(record.state);
  if (state.runId !== runId || state.pending === undefined) {
    throw corrupt('the record under the run key is not that run, paused');
  }
  return {
    runId,
    state,
    pending: state.pending,
    expiresAt: record.expiresAt,
    version: entry.version,
    binding: record.binding,
  };
}

/**
 * Claims a stored run for one resume for `leaseMs`, by compare-and-set on the version it was read at: of
 * any number of resumes of one run, in any processes, exactly one claims it; the others get
 * `already-resumed`. The claim carries the deadline of this wait: one that reaches the store after the
 * resume gave up (a store that stalled) writes nothing, and the run stays paused for the next resume; one
 * that lands before it, after the caller's abort ended the wait, is given back (the run paused again).
 */
export async function claimPendingRun(
  store: Store,
  run: StoredRun,
  options: StoreCallOptions & { readonly ttlMs: number; readonly leaseMs: number },
): Promise<ClaimedRun> {
  const key = runStateKey(run.runId);
  const claimedBy = randomUUID();
  const record: RunRecord = {
    status: 'resuming',
    ...pausedFields(run),
    claimedBy,
    claimedUntil: Math.min(Date.now() + options.leaseMs, Number.MAX_SAFE_INTEGER),
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
  const written = await bounded(
    () =>
      store.set(key, record, {
        ifVersion: run.version,
        ttlMs: keptFor(options.ttlMs),
        deadline: storeDeadline(timeoutMs),
      }),
    options,
    (late) => {
      // Landed after an abort ended the wait (before its deadline): the run goes back to waiting.
      if (!late.ok) return;
      const paused: RunRecord = { status: 'pending', ...pausedFields(run) };
      store.set(key, paused, { ifVersion: late.version, ttlMs: keptFor(options.ttlMs) }).catch(() => {});
    },
  );
  if (!written.ok) {
    throw new ApprovalError({
      reason: 'already-resumed',
      runId: run.runId,
      message: 'another resume claimed it',
    });
  }
  return { key, version: written.version, claim: claimedBy };
}

/** Whether a resume's claim was abandoned: its lease passed (a claim without one never is). */
function claimAbandoned(record: { readonly claimedUntil?: number }): boolean {
  return record.claimedUntil !== undefined && record.claimedUntil <= Date.now();
}

function claimHeldUntil(record: { readonly claimedUntil?: number }): string {
  return record.claimedUntil === undefined
    ? ''
    : ` (its claim holds until ${new Date(record.claimedUntil).toISOString()})`;
}

/**
 * Keeps a paused run for its decisions, for `ttlMs`. A resume that holds the claim writes over its own
 * record only (compare-and-set on the claimed version); a run that holds none writes its record afresh.
 */
export async function savePendingRun(
  store: Store,
  state: RunState,
  options: StoreCallOptions & { readonly ttlMs: number; readonly claimed: ClaimedRun | undefined },
): Promise<void> {
  const { claimed, ttlMs } = options;
  const record: RunRecord = {
    status: 'pending',
    expiresAt: Date.now() + ttlMs,
    state,
    binding: stateDigest(state),
  };
  const written = await bounded(
    () =>
      store.set(runStateKey(state.runId), record, {
        ttlMs: keptFor(ttlMs),
        ...(claimed === undefined ? {} : { ifVersion: claimed.version }),
      }),
    options,
  );
  if (!written.ok) throw new Error("the run's record changed while this resume held its claim");
}

/**
 * Marks a resumed run done (for `ttlMs`): a resume by its id is then refused as `already-resumed`. A resume
 * that claimed the run writes over its claim only (compare-and-set); one from a passed state writes as it is.
 */
export async function finishRun(
  store: Store,
  runId: string,
  claimed: ClaimedRun | undefined,
  outcome: string,
  options: StoreCallOptions & { readonly ttlMs: number },
): Promise<void> {
  const record: RunRecord = { status: 'done', outcome };
  const written = await bounded(
    () =>
      store.set(runStateKey(runId), record, {
        ttlMs: options.ttlMs,
        ...(claimed === undefined ? {} : { ifVersion: claimed.version }),
      }),
    options,
  );
  if (!written.ok) throw new Error("the run's record changed while this resume held its claim");
}

/** A pending record is kept twice its window, so a late resume is told `expired`, not `unknown-run`. */
function keptFor(ttlMs: number): number {
  return Math.min(2 * ttlMs, Number.MAX_SAFE_INTEGER);
}

function bounded<T>(
  start: () => Promise<T>,
  options: StoreCallOptions,
  undo?: (value: T) => void,
): Promise<T> {
  return boundedCall(start, {
    timeoutMs: options.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
    signal: options.signal,
    undo,
  });
}

function pausedFields(run: StoredRun): PausedRecord {
  return { expiresAt: run.expiresAt, state: run.state, binding: run.binding };
}

function readRecord(value: unknown): RunRecord {
  if (typeof value === 'object' && value !== null) {
    const { status, expiresAt, state, outcome, binding, claimedBy, claimedUntil } = value as Record<
      string,
      unknown
    >;
    if (status === 'done' && typeof outcome === 'string') return { status, outcome };
    if (
      (status === 'pending' || status === 'resuming') &&
      typeof expiresAt === 'number' &&
      Number.isFinite(expiresAt) &&
      state !== undefined &&
      typeof binding === 'string'
    ) {
      if (status === 'pending') return { status, expiresAt, state, binding };
      if (
        (claimedBy === undefined || typeof claimedBy === 'string') &&
        (claimedUntil === undefined || (typeof claimedUntil === 'number' && Number.isFinite(claimedUntil)))
      ) {
        return {
          status,
          expiresAt,
          state,
          binding,
          ...(claimedBy === undefined ? {} : { claimedBy }),
          ...(claimedUntil === undefined ? {} : { claimedUntil }),
        };
      }
    }
  }
  throw corrupt('the record under the run key is not one toolwarden wrote');
}

function corrupt(message: string): StoreError {
  return new StoreError({ reason: 'corrupt', operation: 'get', message });
}
