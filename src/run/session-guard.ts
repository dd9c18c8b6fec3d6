import { DEFAULT_GUARD_SAVE_ATTEMPTS, DEFAULT_SESSION_TTL_MS } from '../core/defaults.js';
import type { GuardState } from '../core/guard-state.js';
import type { Store } from '../core/store.js';
import { mergeGuardState } from '../guard/merge-guard-state.js';
import { restoreGuardState } from '../guard/restore-guard-state.js';
import { storeKey } from '../store/store-key.js';
import { boundedCall } from './bounded-call.js';
import type { LoopContext } from './loop-context.js';

/** The guard's memory of a session as a run loaded it: the state, and the store version it came from. */
export interface LoadedGuard {
  readonly state: GuardState;
  /** 0 when the store held none. */
  readonly version: number;
}

/** The longest pause between two tries of a contended save, in milliseconds. */
const GUARD_SAVE_MAX_PAUSE_MS = 50;

export function guardKey(sessionId: string): string {
  return storeKey(sessionId, 'guard');
}

/** Loads the session's guard memory; a stored value that is not a guard state starts afresh (see `restoreGuardState`). */
export async function loadSessionGuard(
  store: Store,
  sessionId: string,
  run: LoopContext,
): Promise<LoadedGuard> {
  const entry = await boundedCall(() => store.get(guardKey(sessionId)), {
    timeoutMs: run.config.callbackTimeoutMs,
    signal: run.budget.signal,
  });
  return entry === undefined
    ? { state: restoreGuardState(undefined), version: 0 }
    : { state: restoreGuardState(entry.value), version: entry.version };
}

/**
 * Saves the guard's memory by compare-and-set on the version it was loaded at. When another request of
 * the session saved in between, this request's rounds are merged into what it saved (`mergeGuardState`)
 * and the save is tried again after a short random pause (so that many requests saving at once take turns
 * instead of colliding again), up to `DEFAULT_GUARD_SAVE_ATTEMPTS` times: each conflict means another
 * request's save landed, so with fewer concurrent requests than attempts every one lands, and two requests
 * never overwrite each other's rounds.
 * Each store call is bounded by the callback timeout but not by the run's signal: a stopped or aborted run
 * still keeps what its guard learnt (the driver decides how long to wait for it).
 */
export async function saveSessionGuard(
  store: Store,
  sessionId: string,
  loaded: LoadedGuard,
  ours: GuardState,
  run: LoopContext,
): Promise<void> {
  const key = guardKey(sessionId);
  let expected = loaded.version;
  let value = ours;
  for (let attempt = 1; ; attempt++) {
    const written = await boundedCall(
      () => store.set(key, value, { ifVersion: expected, ttlMs: DEFAULT_SESSION_TTL_MS }),
      { timeoutMs: run.config.callbackTimeoutMs },
    );
    if (written.ok) return;
    if (attempt >= DEFAULT_GUARD_SAVE_ATTEMPTS) {
      throw new Error(`the session's guard memory changed ${attempt} times while this request saved it`);
    }
    const current = written.current;
    expected = current?.version ?? 0;
    const stored = restoreGuardState(current?.value);
    value = run.guard === undefined ? ours : mergeGuardState(stored, loaded.state, ours, run.guard);
    // Not bounded by the run's signal, as the save is not: a signal of its own that never aborts (one shared
    // by every pause would hold a listener per concurrent save, and Node warns of a leak past ten).
    const never = new AbortController().signal;
    await run.config.sleep(Math.random() * Math.min(GUARD_SAVE_MAX_PAUSE_MS, attempt * 2), never);
  }
}
