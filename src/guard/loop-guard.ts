import {
  DEFAULT_GUARD_NEWS_MEMORY,
  DEFAULT_GUARD_WINDOW_ROUNDS,
  DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND,
} from '../core/defaults.js';
import {
  type CallRecord,
  EMPTY_GUARD_STATE,
  type GuardFinding,
  type GuardState,
  type RoundRecord,
  shapeOf,
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
  /** The records were read against `state`'s window already (`newsOf`, as `guardRound` builds them). */
  settled = false,
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
  const round: RoundRecord = {
    round: state.nextRound,
    request: state.request,
    calls: settled ? calls : calls.map((record) => settle(state.window, record)),
  };
  const window = state.window.slice(1 - DEFAULT_GUARD_WINDOW_ROUNDS);
  window.push(round);
  const next = guardState(state, { nextRound: state.nextRound + 1, window });
  return { state: next, findings: detectLoops(window, config.thresholds, config.hintsOf), kept };
}

/**
 * A record read against the window before it: a result whose only change from the last answer of the
 * same call is a counter one up takes that answer's digest (an attempt number says nothing new), and a
 * result that tells the model something new is marked `novel`: an answer the same call never gave, or
 * one no call of its tool had given, among the last `DEFAULT_GUARD_NEWS_MEMORY` calls. Failures are
 * never new: they are what a loop keeps meeting.
 */
function settle(window: readonly RoundRecord[], record: CallRecord): CallRecord {
  const news = newsOf(window, record);
  if (news.result === record.result && !news.novel) return record;
  return news.novel ? { ...record, result: news.result, novel: true } : { ...record, result: news.result };
}

/** What `settle` makes of a record: its result (a counter one up read as the last answer), and whether it is news. */
export function newsOf(
  window: readonly RoundRecord[],
  record: CallRecord,
): { readonly result: number; readonly novel: boolean } {
  if (record.outcome !== 'ok') return { result: record.result, novel: false };
  const { tool } = record;
  const shape = shapeOf(record);
  // A record without a shape of its own is the same call only as a record whose call digest is its own
  // (a masked shape is a digest of other text): one property read per record, not two.
  const masked = record.shape !== undefined;
  let last: CallRecord | undefined;
  // The answers of the latest calls, newest first: the same call's last answer, and whether this call
  // (or any call of its tool) gave this result.
  let answeredSo = false;
  let toolAnsweredSo = false;
  const { result } = record;
  let seen = 0;
  for (let index = window.length - 1; index >= 0 && seen < DEFAULT_GUARD_NEWS_MEMORY; index--) {
    const calls = (window[index] as RoundRecord).calls;
    seen += calls.length;
    for (let at = 0; at < calls.length; at++) {
      const other = calls[at] as CallRecord;
      const same = (masked ? other.shape === shape : other.call === shape) && other.tool === tool;
      if (same && last === undefined) last = other;
      if (other.result !== result || other.outcome !== 'ok' || other.tool !== tool) continue;
      toolAnsweredSo = true;
      if (same) answeredSo = true;
    }
  }
  if (
    record.write !== true &&
    last?.outcome === 'ok' &&
    record.frame !== undefined &&
    record.frame === last.frame &&
    record.sum === (last.sum ?? 0) + 1
  ) {
    // One counter up from the last answer of a read, the rest alike: that answer again (a write's counter
    // may be the work it did: processed 1, 2, 3).
    return { result: last.result, novel: false };
  }
  // A read's answer is news when this call never gave it (nor, for a new call, any call of its tool). A
  // write's only when it carries content: a short answer (an acknowledgement, a new id, a fresh session
  // token, a count) says the write was taken, not what the world now shows.
  const novel =
    !answeredSo &&
    (record.write !== true || record.content === true) &&
    (last !== undefined || !toolAnsweredSo);
  return { result, novel };
}

/** The state with a note's key remembered (the newest last, bounded by the window). */
export function withNudged(state: GuardState, key: string): GuardState {
  return guardState(state, { nudged: [...state.nudged.slice(1 - DEFAULT_GUARD_WINDOW_ROUNDS), key] });
}

/** The state with some fields changed, written field by field: one shape every round (see `runStateWith`). */
function guardState(state: GuardState, changes: Partial<Omit<GuardState, 'schemaVersion'>>): GuardState {
  return {
    schemaVersion: state.schemaVersion,
    nextRound: changes.nextRound ?? state.nextRound,
    request: changes.request ?? state.request,
    window: changes.window ?? state.window,
    nudged: changes.nudged ?? state.nudged,
  };
}
