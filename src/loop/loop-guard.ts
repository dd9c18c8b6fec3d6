import { DEFAULT_GUARD_WINDOW_ROUNDS, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../defaults.js';
import { detectLoops, type LoopThresholds } from './detect-loops.js';
import {
  type CallRecord,
  EMPTY_GUARD_STATE,
  type GuardFinding,
  type GuardState,
  type RoundRecord,
  roundSignature,
} from './guard-types.js';

export interface ObserveOutcome {
  readonly state: GuardState;
  readonly findings: readonly GuardFinding[];
}

/**
 * Records one round in the guard's window and runs the detectors. Pure: returns a new state. The window
 * holds at most `DEFAULT_GUARD_WINDOW_ROUNDS` rounds of at most `DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND`
 * calls, so memory is bounded however long a request runs.
 */
export function observeRound(
  state: GuardState,
  calls: readonly CallRecord[],
  thresholds: LoopThresholds,
  windowRounds = DEFAULT_GUARD_WINDOW_ROUNDS,
): ObserveOutcome {
  const remembered =
    calls.length > DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND
      ? calls.slice(0, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND)
      : calls;
  // Transient failures neither show progress nor its absence.
  let judged = 0;
  let novel = false;
  for (const call of remembered) {
    if (call.transient === true) continue;
    judged++;
    if (!novel && !seenBefore(state.window, call)) novel = true;
  }
  const round: RoundRecord = {
    round: state.nextRound,
    calls: remembered,
    signature: roundSignature(remembered),
  };
  const from = Math.max(0, state.window.length - windowRounds + 1);
  const window: RoundRecord[] = new Array(state.window.length - from + 1);
  for (let i = from; i < state.window.length; i++) window[i - from] = state.window[i] as RoundRecord;
  window[window.length - 1] = round;
  const staleRounds =
    judged === 0 ? (remembered.length === 0 ? 0 : state.staleRounds) : novel ? 0 : state.staleRounds + 1;
  const next: GuardState = {
    schemaVersion: 1,
    nextRound: state.nextRound + 1,
    window,
    staleRounds,
    nudged: state.nudged,
  };
  return { state: next, findings: detectLoops(window, staleRounds, thresholds) };
}

/** Whether this (tool, result) pair came out of any round in the window (a scan: no index to allocate). */
function seenBefore(window: readonly RoundRecord[], call: CallRecord): boolean {
  for (const round of window) {
    for (const other of round.calls)
      if (other.tool === call.tool && other.result === call.result) return true;
  }
  return false;
}

export function markNudged(state: GuardState, fingerprint: string): GuardState {
  return { ...state, nudged: [...state.nudged, fingerprint].slice(-DEFAULT_GUARD_WINDOW_ROUNDS) };
}

/** Reads persisted state defensively: anything unexpected (another version, hostile JSON) starts afresh. */
export function restoreGuardState(value: unknown): GuardState {
  if (typeof value !== 'object' || value === null) return EMPTY_GUARD_STATE;
  const candidate = value as Partial<GuardState>;
  if (candidate.schemaVersion !== 1 || !Array.isArray(candidate.window) || !Array.isArray(candidate.nudged)) {
    return EMPTY_GUARD_STATE;
  }
  const window = candidate.window
    .filter(
      (round): round is GuardState['window'][number] =>
        typeof round === 'object' &&
        round !== null &&
        Number.isSafeInteger(round.round) &&
        Array.isArray(round.calls) &&
        round.calls.every(
          (call: unknown) =>
            typeof call === 'object' &&
            call !== null &&
            typeof (call as CallRecord).tool === 'string' &&
            typeof (call as CallRecord).call === 'string' &&
            typeof (call as CallRecord).result === 'string',
        ),
    )
    .slice(-DEFAULT_GUARD_WINDOW_ROUNDS)
    .map((round): RoundRecord => {
      const calls = round.calls
        .slice(0, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND)
        .map(
          ({ tool, call, result, transient }): CallRecord =>
            transient === true ? { tool, call, result, transient: true } : { tool, call, result },
        );
      return { round: round.round, calls, signature: roundSignature(calls) };
    });
  const nextRound = Number.isSafeInteger(candidate.nextRound)
    ? (candidate.nextRound as number)
    : (window.at(-1)?.round ?? 0) + 1;
  const staleRounds = Number.isSafeInteger(candidate.staleRounds) ? (candidate.staleRounds as number) : 0;
  const nudged = candidate.nudged.filter((entry): entry is string => typeof entry === 'string');
  return { schemaVersion: 1, nextRound, window, staleRounds, nudged };
}
