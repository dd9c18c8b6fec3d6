import { hashText } from './call-hash.js';
import { callFingerprintText } from './fingerprint.js';
import { type CallRecord, type GuardFinding, type LoopEvidence, NO_FINDINGS } from './guard-types.js';
import { entryAt, type GuardWindow, roundCount, roundStart } from './guard-window.js';

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
 * nothing (almost every round) returns the shared empty `NO_FINDINGS`. `scratch`, an empty array the
 * caller keeps from round to round, collects the findings so that a round without any allocates nothing;
 * it is left empty.
 */
export function detectLoops(
  window: GuardWindow,
  staleRounds: number,
  thresholds: LoopThresholds,
  scratch: GuardFinding[] = [],
): readonly GuardFinding[] {
  if (roundCount(window) === 0) return NO_FINDINGS;
  // A cycle repeats the current round, so each of its calls must have occurred before in the window.
  if (repeats(window, thresholds, scratch)) cycles(window, thresholds.maxCyclePeriod, scratch);
  noProgress(window, staleRounds, thresholds.noProgressRounds, scratch);
  return scratch.length === 0 ? NO_FINDINGS : scratch.splice(0);
}

// The detectors run every round and almost always find nothing: they count first, and build evidence
// only when a finding is due. The every-round scans use indexed loops: for-of allocates an iterator
// result per step wherever the code is not optimized (after a GC has thrown that code away).

/**
 * Exact repeats (same call, same result) and same results under other arguments, counted in one pass over
 * the window for each call of the current round. Returns whether the round has calls and every one of
 * them occurred before.
 */
function repeats(window: GuardWindow, thresholds: LoopThresholds, findings: GuardFinding[]): boolean {
  const { tools, calls, results } = window;
  const end = calls.length;
  const start = roundStart(window, window.roundSizes.length - 1);
  let recurring = end > start;
  for (let index = start; index < end; index++) {
    const tool = tools[index] as string;
    const call = calls[index] as number;
    const result = results[index] as number;
    let occurrences = 0;
    let sameResult = 0;
    for (let j = window.firstEntry; j < end; j++) {
      if (results[j] !== result || tools[j] !== tool) continue;
      sameResult++;
      if (calls[j] === call) occurrences++;
    }
    // A transient failure is not a loop: no warning, no nudge; only a tool that stays down is stopped.
    const transient = window.transient[index] === true;
    const level = transient
      ? thresholds.transientRepeatLimit > 0 && occurrences >= thresholds.transientRepeatLimit
        ? 'stop'
        : undefined
      : levelFor(occurrences, thresholds.repeatLimit);
    const callIndex = index - start;
    if (level !== undefined) {
      const rounds = roundsWith(window, call, result);
      const detector = transient ? 'still-unavailable' : 'exact-repeat';
      const entries = [entryAt(window, index)];
      findings.push({ level, callIndex, evidence: evidence(detector, entries, occurrences, rounds) });
    }
    if (!transient && sameResult > occurrences)
      sameResults(window, index, callIndex, thresholds.sameResultLimit, findings);
    if (occurrences < 2) recurring = false;
  }
  return recurring;
}

/** The same result under different arguments: evidence is gathered only when another call shares the result. */
function sameResults(
  window: GuardWindow,
  index: number,
  callIndex: number,
  limit: number,
  findings: GuardFinding[],
): void {
  const { tools, calls, results } = window;
  const matches: CallRecord[] = [];
  const rounds: number[] = [];
  let start = window.firstEntry;
  for (let r = window.first; r < window.roundSizes.length; r++) {
    const end = start + (window.roundSizes[r] as number);
    for (let j = start; j < end; j++) {
      if (tools[j] !== tools[index] || results[j] !== results[index]) continue;
      if (hasCall(matches, calls[j] as number)) continue;
      matches.push(entryAt(window, j));
      rounds.push(window.roundNumbers[r] as number);
    }
    start = end;
  }
  const level = levelFor(matches.length, limit);
  if (level === undefined || matches.length < 2) return;
  findings.push({ level, callIndex, evidence: evidence('same-result', matches, matches.length, rounds) });
}

function hasCall(records: readonly CallRecord[], call: number): boolean {
  for (const record of records) if (record.call === call) return true;
  return false;
}

/** A repeating sequence of rounds: the last `period` rounds equal the `period` before them. */
function cycles(window: GuardWindow, maxPeriod: number, findings: GuardFinding[]): void {
  const n = window.roundSizes.length;
  for (let period = 2; period <= maxPeriod; period++) {
    if (roundCount(window) < 2 * period) break;
    // Newest first: in a round that is no cycle the first comparison already fails.
    let repeats = true;
    for (let i = n - 1; i >= n - period && repeats; i--)
      repeats = (window.roundSizes[i] as number) > 0 && sameRound(window, i, i - period);
    if (!repeats) continue;
    let distinct = false;
    for (let i = n - period; i < n - 1 && !distinct; i++) distinct = !sameRound(window, i, n - 1);
    if (!distinct) continue;
    const rounds = window.roundNumbers.slice(-2 * period);
    const calls: CallRecord[] = [];
    for (let j = roundStart(window, n - period); j < window.calls.length; j++) calls.push(entryAt(window, j));
    findings.push({ level: 'stop', evidence: { ...evidence('cycle', calls, 2, rounds), period } });
    return;
  }
}

/** The same calls with the same results, in the same order: rounds compared directly, no signature built. */
function sameRound(window: GuardWindow, a: number, b: number): boolean {
  if (a === b) return true;
  const size = window.roundSizes[a] as number;
  if (size !== window.roundSizes[b]) return false;
  const startA = roundStart(window, a);
  const startB = roundStart(window, b);
  for (let i = 0; i < size; i++) {
    if (window.calls[startA + i] !== window.calls[startB + i]) return false;
    if (window.results[startA + i] !== window.results[startB + i]) return false;
  }
  return true;
}

function noProgress(window: GuardWindow, staleRounds: number, limit: number, findings: GuardFinding[]): void {
  const level = levelFor(staleRounds, limit);
  if (level === undefined || staleRounds === 0) return;
  const current = window.roundNumbers.at(-1) as number;
  const rounds = Array.from({ length: staleRounds }, (_, i) => current - staleRounds + 1 + i);
  const calls: CallRecord[] = [];
  for (let j = roundStart(window, window.roundSizes.length - 1); j < window.calls.length; j++)
    calls.push(entryAt(window, j));
  findings.push({ level, evidence: evidence('no-progress', calls, staleRounds, rounds) });
}

function levelFor(count: number, limit: number): 'warn' | 'stop' | undefined {
  if (limit <= 0) return undefined;
  if (count >= limit) return 'stop';
  if (count === limit - 1 && count >= 2) return 'warn';
  return undefined;
}

/**
 * The numbers of the rounds with this call and result. Values, not a predicate: a closure over the
 * caller's loop variables would make every iteration allocate a context for them, finding or not.
 */
function roundsWith(window: GuardWindow, call: number, result: number): number[] {
  const rounds: number[] = [];
  let start = window.firstEntry;
  for (let r = window.first; r < window.roundSizes.length; r++) {
    const end = start + (window.roundSizes[r] as number);
    for (let j = start; j < end; j++)
      if (window.calls[j] === call && window.results[j] === result)
        rounds.push(window.roundNumbers[r] as number);
    start = end;
  }
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
