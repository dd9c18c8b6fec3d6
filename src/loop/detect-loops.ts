import { callFingerprintText } from './fingerprint.js';
import { hashText } from './fingerprinter.js';
import {
  type CallRecord,
  type GuardFinding,
  type LoopEvidence,
  NO_FINDINGS,
  type RoundRecord,
} from './guard-types.js';

export interface LoopThresholds {
  /** Occurrences of the same call with the same result that stop (default 3: the 2nd repeat). */
  readonly repeatLimit: number;
  /** Different arguments to one tool with the same result that stop (default 3). */
  readonly sameResultLimit: number;
  /** Longest cycle period looked for, in rounds (default 4; 0 turns cycle detection off). */
  readonly maxCyclePeriod: number;
  /** Rounds in a row with no new result that stop (default 4). */
  readonly noProgressRounds: number;
  /** Occurrences of the same call failing transiently that stop (default 5; no warning before). */
  readonly transientRepeatLimit: number;
}

/**
 * The four detectors, over the window (the current round last). Pure: same window, same findings.
 * A finding is `warn` one step before its threshold (the moment for a nudge) and `stop` at it. Finding
 * nothing (almost every round) returns the shared empty `NO_FINDINGS`.
 */
export function detectLoops(
  window: readonly RoundRecord[],
  staleRounds: number,
  thresholds: LoopThresholds,
): readonly GuardFinding[] {
  const current = window.at(-1);
  if (current === undefined) return NO_FINDINGS;
  const findings: GuardFinding[] = [];
  repeats(window, current, thresholds, findings);
  cycles(window, thresholds.maxCyclePeriod, findings);
  noProgress(current, staleRounds, thresholds.noProgressRounds, findings);
  return findings.length === 0 ? NO_FINDINGS : findings;
}

// The detectors run every round and almost always find nothing: they count first, and allocate
// evidence only when a finding is due. The every-round scans use indexed loops: for-of allocates an
// iterator result per step wherever the code is not optimized (after a GC has thrown that code away).

/**
 * Exact repeats (same call, same result) and same results under other arguments, counted in one pass over
 * the window for each call of the current round.
 */
function repeats(
  window: readonly RoundRecord[],
  current: RoundRecord,
  thresholds: LoopThresholds,
  findings: GuardFinding[],
): void {
  for (let callIndex = 0; callIndex < current.calls.length; callIndex++) {
    const call = current.calls[callIndex] as CallRecord;
    let occurrences = 0;
    let sameResult = 0;
    for (let r = 0; r < window.length; r++) {
      const { calls } = window[r] as RoundRecord;
      for (let c = 0; c < calls.length; c++) {
        const other = calls[c] as CallRecord;
        if (other.result !== call.result || other.tool !== call.tool) continue;
        sameResult++;
        if (other.call === call.call) occurrences++;
      }
    }
    // A transient failure is not a loop: no warning, no nudge; only a tool that stays down is stopped.
    const transient = call.transient === true;
    const level = transient
      ? thresholds.transientRepeatLimit > 0 && occurrences >= thresholds.transientRepeatLimit
        ? 'stop'
        : undefined
      : levelFor(occurrences, thresholds.repeatLimit);
    if (level !== undefined) {
      const rounds = roundsWhere(window, (c) => c.call === call.call && c.result === call.result);
      const detector = transient ? 'still-unavailable' : 'exact-repeat';
      findings.push({ level, callIndex, evidence: evidence(detector, [call], occurrences, rounds) });
    }
    if (!transient && sameResult > occurrences)
      sameResults(window, call, callIndex, thresholds.sameResultLimit, findings);
  }
}

/** The same result under different arguments: evidence is gathered only when another call shares the result. */
function sameResults(
  window: readonly RoundRecord[],
  call: CallRecord,
  callIndex: number,
  limit: number,
  findings: GuardFinding[],
): void {
  const matches: CallRecord[] = [];
  const rounds: number[] = [];
  for (const round of window) {
    for (const other of round.calls) {
      if (other.tool !== call.tool || other.result !== call.result) continue;
      if (matches.some((m) => m.call === other.call)) continue;
      matches.push(other);
      rounds.push(round.round);
    }
  }
  const level = levelFor(matches.length, limit);
  if (level === undefined || matches.length < 2) return;
  findings.push({ level, callIndex, evidence: evidence('same-result', matches, matches.length, rounds) });
}

/** A repeating sequence of rounds: the last `period` rounds equal the `period` before them. */
function cycles(window: readonly RoundRecord[], maxPeriod: number, findings: GuardFinding[]): void {
  const n = window.length;
  for (let period = 2; period <= maxPeriod; period++) {
    if (n < 2 * period) break;
    let repeats = true;
    let distinct = false;
    for (let i = n - period; i < n && repeats; i++) {
      const round = window[i] as RoundRecord;
      repeats = round.calls.length > 0 && sameRound(round, window[i - period] as RoundRecord);
      if (!distinct && !sameRound(round, window[n - 1] as RoundRecord)) distinct = true;
    }
    if (!repeats || !distinct) continue;
    const rounds = window.slice(-2 * period).map((round) => round.round);
    const calls = window.slice(-period).flatMap((round) => round.calls);
    findings.push({ level: 'stop', evidence: { ...evidence('cycle', calls, 2, rounds), period } });
    return;
  }
}

/** The same calls with the same results, in the same order: rounds compared directly, no signature built. */
function sameRound(a: RoundRecord, b: RoundRecord): boolean {
  if (a === b) return true;
  if (a.calls.length !== b.calls.length) return false;
  for (let i = 0; i < a.calls.length; i++) {
    const x = a.calls[i] as CallRecord;
    const y = b.calls[i] as CallRecord;
    if (x.call !== y.call || x.result !== y.result) return false;
  }
  return true;
}

function noProgress(
  current: RoundRecord,
  staleRounds: number,
  limit: number,
  findings: GuardFinding[],
): void {
  const level = levelFor(staleRounds, limit);
  if (level === undefined || staleRounds === 0) return;
  const rounds = Array.from({ length: staleRounds }, (_, i) => current.round - staleRounds + 1 + i);
  findings.push({ level, evidence: evidence('no-progress', current.calls, staleRounds, rounds) });
}

function levelFor(count: number, limit: number): 'warn' | 'stop' | undefined {
  if (limit <= 0) return undefined;
  if (count >= limit) return 'stop';
  if (count === limit - 1 && count >= 2) return 'warn';
  return undefined;
}

function roundsWhere(window: readonly RoundRecord[], match: (call: CallRecord) => boolean): number[] {
  const rounds: number[] = [];
  for (const round of window) for (const call of round.calls) if (match(call)) rounds.push(round.round);
  return rounds;
}

function evidence(
  detector: LoopEvidence['detector'],
  calls: readonly CallRecord[],
  occurrences: number,
  rounds: readonly number[],
): LoopEvidence {
  return {
    detector,
    toolNames: [...new Set(calls.map((call) => call.tool))],
    fingerprints: calls.map(({ tool, call, result }) => ({
      call: callFingerprintText(tool, call),
      result: hashText(result),
    })),
    occurrences,
    rounds: [...new Set(rounds)],
  };
}
