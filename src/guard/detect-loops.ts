import type {
  CallRecord,
  GuardFinding,
  LoopDetector,
  LoopEvidence,
  RoundRecord,
} from '../core/guard-state.js';
import { callFingerprintText, hashText } from './fingerprint.js';
import type { GuardOptions } from './guard-options.js';
import type { ResolvedHints } from './loop-hints.js';

/** How many repeats each detector of the loop guard allows before it warns and stops: `GuardOptions`' thresholds, resolved. */
export type LoopThresholds = Required<
  Pick<
    GuardOptions,
    'repeatLimit' | 'sameResultLimit' | 'maxCyclePeriod' | 'noProgressRounds' | 'transientRepeatLimit'
  >
>;

/**
 * The detectors, over the window (the current round last). Pure: the same window and hints give the same
 * findings. A finding is `warn` one step before its threshold (the moment for a note to the model) and
 * `stop` at it. What counts as "the same situation":
 * - a request is new context: cycles and stale rounds are looked for within the current request, and an
 *   exact repeat counts an earlier request only where that request ended repeating the call;
 * - a read after a write that changed something (a successful write whose call was not seen before) is
 *   a new situation: the reads before the change do not count;
 * - identical calls of one round are one occurrence (the round's records are kept distinct).
 */
export function detectLoops(
  window: readonly RoundRecord[],
  thresholds: LoopThresholds,
  hintsOf: (tool: string) => ResolvedHints,
): GuardFinding[] {
  const findings: GuardFinding[] = [];
  const current = window.length - 1;
  const round = window[current];
  if (round === undefined) return findings;
  let requestStart = current;
  while (requestStart > 0 && window[requestStart - 1]?.request === round.request) requestStart--;
  const readsFrom = situationStart(window, requestStart, current);

  round.calls.forEach((record, callIndex) => {
    const hints = hintsOf(record.tool);
    if (record.outcome === 'transient') {
      const limit = thresholds.transientRepeatLimit;
      const rounds = roundsWith(window, requestStart, current, record, true);
      if (limit > 0 && rounds.length >= limit)
        findings.push(finding('stop', 'still-unavailable', [record], rounds, callIndex));
      return;
    }
    const from = record.write === true ? requestStart : readsFrom;
    const rounds = roundsWith(window, from, current, record, false);
    if (from === requestStart) rounds.unshift(...repeatedBefore(window, requestStart, record));
    const polled = hints.maxUnchanged > 0;
    // A polled tool may answer unchanged `maxUnchanged` times after its first answer: the next one stops.
    const level = levelFor(rounds.length, polled ? hints.maxUnchanged + 2 : thresholds.repeatLimit);
    if (level !== undefined)
      findings.push(finding(level, polled ? 'unchanged-poll' : 'exact-repeat', [record], rounds, callIndex));
    if (
      record.outcome === 'ok' &&
      record.content === true &&
      record.write !== true &&
      !polled &&
      !hints.sharedResults
    )
      sameResult(window, readsFrom, current, record, callIndex, thresholds.sameResultLimit, findings);
    // A model that keeps asking for a tool it may not use, whatever the arguments, is stuck too.
    if (record.outcome === 'denied')
      sameResult(window, requestStart, current, record, callIndex, thresholds.sameResultLimit, findings);
  });
  cycle(window, requestStart, thresholds.maxCyclePeriod, hintsOf, findings);
  noProgress(window, requestStart, thresholds.noProgressRounds, hintsOf, findings);
  return findings;
}

/** Where the reads of round `at` start counting: after the newest change before it, within the request. */
function situationStart(window: readonly RoundRecord[], requestStart: number, at: number): number {
  if (window[at]?.changed === true) return at;
  for (let index = at - 1; index >= requestStart; index--)
    if (window[index]?.changed === true) return index + 1;
  return requestStart;
}

function sameCall(a: CallRecord, b: CallRecord): boolean {
  return a.call === b.call && a.result === b.result;
}

/** The numbers of the rounds in [from, to] holding this call with this result (transient failures apart). */
function roundsWith(
  window: readonly RoundRecord[],
  from: number,
  to: number,
  record: CallRecord,
  transient: boolean,
): number[] {
  const rounds: number[] = [];
  for (let index = from; index <= to; index++) {
    const round = window[index] as RoundRecord;
    const found = round.calls.some(
      (other) => sameCall(other, record) && (other.outcome === 'transient') === transient,
    );
    if (found) rounds.push(round.round);
  }
  return rounds;
}

/**
 * The rounds of earlier requests with this call and result, from each request that ended in it: the call
 * repeated in every round from its first occurrence to the request's last. A request that moved on after
 * it (re-read the profile, then did its work) made progress; its occurrences do not count.
 */
function repeatedBefore(window: readonly RoundRecord[], requestStart: number, record: CallRecord): number[] {
  const rounds: number[] = [];
  let start = 0;
  while (start < requestStart) {
    let end = start;
    const request = window[start]?.request;
    while (end + 1 < requestStart && window[end + 1]?.request === request) end++;
    const found = roundsWith(window, start, end, record, false);
    const first = found[0];
    const last = (window[end] as RoundRecord).round;
    if (first !== undefined && found.length >= 2 && found.length === last - first + 1) rounds.push(...found);
    start = end + 1;
  }
  return rounds;
}

/** Different calls to one tool, one content-bearing result (or one denial): rewording that changes nothing. */
function sameResult(
  window: readonly RoundRecord[],
  from: number,
  to: number,
  record: CallRecord,
  callIndex: number,
  limit: number,
  findings: GuardFinding[],
): void {
  const matches: CallRecord[] = [];
  const rounds: number[] = [];
  for (let index = from; index <= to; index++) {
    const round = window[index] as RoundRecord;
    for (const other of round.calls) {
      if (other.tool !== record.tool || other.result !== record.result || other.outcome !== record.outcome)
        continue;
      if (matches.some((match) => match.call === other.call)) continue;
      matches.push(other);
      rounds.push(round.round);
    }
  }
  const level = matches.length < 2 ? undefined : levelFor(matches.length, limit);
  if (level !== undefined) findings.push(finding(level, 'same-result', matches, rounds, callIndex));
}

/** A repeating sequence of rounds in the request: the last `period` rounds equal the `period` before them. */
function cycle(
  window: readonly RoundRecord[],
  requestStart: number,
  maxPeriod: number,
  hintsOf: (tool: string) => ResolvedHints,
  findings: GuardFinding[],
): void {
  const n = window.length;
  // Polls and transient failures repeat by nature: a round with one is no part of a cycle.
  const plain = (round: RoundRecord) =>
    round.calls.length > 0 &&
    round.calls.every((record) => record.outcome !== 'transient' && hintsOf(record.tool).maxUnchanged === 0);
  for (let period = 2; period <= maxPeriod && n - requestStart >= 2 * period; period++) {
    let repeats = true;
    for (let i = n - 1; i >= n - period && repeats; i--) {
      const a = window[i] as RoundRecord;
      repeats = plain(a) && sameRound(a, window[i - period] as RoundRecord);
    }
    if (!repeats) continue;
    const last = window[n - 1] as RoundRecord;
    let distinct = false;
    for (let i = n - period; i < n - 1 && !distinct; i++)
      distinct = !sameRound(window[i] as RoundRecord, last);
    if (!distinct) continue;
    const cycleRounds = window.slice(n - 2 * period);
    const records = window.slice(n - period).flatMap((round) => round.calls);
    const rounds = cycleRounds.map((round) => round.round);
    findings.push({ level: 'stop', evidence: { ...evidence('cycle', records, 2, rounds), period } });
    return;
  }
}

/** The same calls with the same results (a round's records are distinct, so equal sizes and containment). */
function sameRound(a: RoundRecord, b: RoundRecord): boolean {
  if (a.calls.length !== b.calls.length) return false;
  return a.calls.every((record) => b.calls.some((other) => sameCall(other, record)));
}

/** Rounds in a row, within the request, whose every call repeats a call and result already seen in its situation. */
function noProgress(
  window: readonly RoundRecord[],
  requestStart: number,
  limit: number,
  hintsOf: (tool: string) => ResolvedHints,
  findings: GuardFinding[],
): void {
  const stale: number[] = [];
  for (let index = window.length - 1; index >= requestStart; index--) {
    const round = window[index] as RoundRecord;
    const judged = round.calls.filter(
      (record) => record.outcome !== 'transient' && hintsOf(record.tool).maxUnchanged === 0,
    );
    if (judged.length === 0) continue;
    const readsFrom = situationStart(window, requestStart, index);
    const seen = judged.every((record) => {
      const from = record.write === true ? requestStart : readsFrom;
      for (let earlier = from; earlier < index; earlier++)
        if ((window[earlier] as RoundRecord).calls.some((other) => sameCall(other, record))) return true;
      return false;
    });
    if (!seen) break;
    stale.unshift(round.round);
  }
  const level = stale.length < 2 ? undefined : levelFor(stale.length, limit);
  if (level === undefined) return;
  const records = (window.at(-1) as RoundRecord).calls;
  findings.push(finding(level, 'no-progress', records, stale, undefined));
}

function levelFor(count: number, limit: number): 'warn' | 'stop' | undefined {
  if (limit <= 0) return undefined;
  if (count >= limit) return 'stop';
  if (count === limit - 1 && count >= 2) return 'warn';
  return undefined;
}

function finding(
  level: 'warn' | 'stop',
  detector: LoopDetector,
  records: readonly CallRecord[],
  rounds: readonly number[],
  callIndex: number | undefined,
): GuardFinding {
  const found = evidence(
    detector,
    records,
    detector === 'same-result' ? records.length : rounds.length,
    rounds,
  );
  return callIndex === undefined ? { level, evidence: found } : { level, evidence: found, callIndex };
}

function evidence(
  detector: LoopDetector,
  records: readonly CallRecord[],
  occurrences: number,
  rounds: readonly number[],
): LoopEvidence {
  return {
    detector,
    toolNames: [...new Set(records.map((record) => record.tool))],
    fingerprints: records.map(({ tool, call, result, outcome, write }) => ({
      call: callFingerprintText(tool, call),
      result: hashText(result),
      outcome,
      write: write === true,
    })),
    occurrences,
    rounds: [...new Set(rounds)].sort((a, b) => a - b),
  };
}
