import { DEFAULT_GUARD_WINDOW_ROUNDS, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../core/defaults.js';
import {
  type CallRecord,
  EMPTY_GUARD_STATE,
  type GuardFinding,
  type GuardState,
  type RoundRecord,
} from '../core/guard-state.js';
import { detectLoops, type LoopThresholds } from './detect-loops.js';
import type { ResolvedHints } from './loop-hints.js';

/** What the guard needs besides its state: the thresholds and each tool's hints. */
export interface GuardConfig {
  readonly thresholds: LoopThresholds;
  readonly hintsOf: (tool: string) => ResolvedHints;
}

/** The state at the start of a new request of the session: a new context (see `detectLoops`). */
export function startRequest(state: GuardState): GuardState {
  const from = exhausted(state) ? EMPTY_GUARD_STATE : state;
  return guardState(from, { request: from.request + 1 });
}

/**
 * A state whose counters are at the end of the safe integers (reachable only from a saved state written
 * that way) starts afresh: counting on would write a state that no reader takes as a count.
 */
function exhausted(state: GuardState): boolean {
  return state.nextRound >= Number.MAX_SAFE_INTEGER || state.request >= Number.MAX_SAFE_INTEGER;
}

/**
 * Adds a round to the guard's state and runs the detectors over it. Pure: returns the next state (the
 * window slid to its bound) and the findings. Identical records of one round are kept once (the same
 * call asked twice in one response is one occurrence), and at most
 * `DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND` are kept; `kept` gives, for each kept record (what a finding's
 * `callIndex` counts), its index in `records`.
 */
export function observeRound(
  state: GuardState,
  records: readonly CallRecord[],
  config: GuardConfig,
): {
  readonly state: GuardState;
  readonly findings: readonly GuardFinding[];
  readonly kept: readonly number[];
} {
  if (exhausted(state)) return observeRound(EMPTY_GUARD_STATE, records, config);
  const calls: CallRecord[] = [];
  const kept: number[] = [];
  records.forEach((record, index) => {
    if (calls.length >= DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND) return;
    const same = calls.some(
      (other) =>
        other.call === record.call && other.result === record.result && other.outcome === record.outcome,
    );
    if (same) return;
    calls.push(record);
    kept.push(index);
  });
  const round: RoundRecord = changesSomething(state.window, calls)
    ? { round: state.nextRound, request: state.request, calls, changed: true }
    : { round: state.nextRound, request: state.request, calls };
  const window = state.window.slice(1 - DEFAULT_GUARD_WINDOW_ROUNDS);
  window.push(round);
  const next = guardState(state, { nextRound: state.nextRound + 1, window });
  return { state: next, findings: detectLoops(window, config.thresholds, config.hintsOf), kept };
}

/** Whether a round's records hold a successful write whose call no earlier write in the window had. */
function changesSomething(window: readonly RoundRecord[], calls: readonly CallRecord[]): boolean {
  return calls.some(
    (record) =>
      record.write === true &&
      record.outcome === 'ok' &&
      !window.some((round) =>
        round.calls.some((other) => other.write === true && other.call === record.call),
      ),
  );
}

/** The state with a note's key remembered (the newest last, bounded by the window). */
export function withNudged(state: GuardState, key: string): GuardState {
  return guardState(state, { nudged: [...state.nudged.slice(1 - DEFAULT_GUARD_WINDOW_ROUNDS), key] });
}

/** The state with some fields changed. */
function guardState(state: GuardState, changes: Partial<Omit<GuardState, 'schemaVersion'>>): GuardState {
  return { ...state, ...changes };
}
