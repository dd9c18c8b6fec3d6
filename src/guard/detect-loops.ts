import {
  type CallRecord,
  type GuardFinding,
  gistOf,
  type LoopDetector,
  type LoopEvidence,
  type RoundRecord,
  shapeOf,
} from '../core/guard-state.js';
import { callFingerprintText, hashText } from './fingerprint.js';
import type { GuardOptions } from './guard-options.js';
import { isReceipt } from './is-receipt.js';
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
 * `stop` at it. Evidence of a loop is a streak: occurrences of one situation with nothing new between
 * them (no call told the model anything it had not seen, see `settle`). So:
 * - a call repeated with its result counts back to the last news; when every gap between its
 *   occurrences held a write (an attempt to change something that changed nothing the model could see),
 *   one more pass is allowed;
 * - a request is new context for answers (asking again in a new request is legitimate), not for
 *   failures: the same failing call after each "try again", nothing new between, is one streak;
 * - different calls with one result (one tool's content, one tool's error, a denial from any tool) are
 *   evidence only while nothing new happens around them;
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

  round.calls.forEach((record, callIndex) => {
    // News is no repeat of anything: no earlier call gave its answer (see `settle`).
    if (record.novel === true) return;
    const hints = hintsOf(record.tool);
    // A write that succeeded again did the same thing again, whatever its receipt says (a new ticket id).
    const receipt = isReceipt(record);
    const same = (other: CallRecord) =>
      shapeOf(other) === shapeOf(record) &&
      other.outcome === record.outcome &&
      (receipt || other.result === record.result) &&
      other.tool === record.tool;
    if (record.outcome === 'transient') {
      const limit = thresholds.transientRepeatLimit;
      const rounds = roundsWith(window, requestStart, current, same);
      if (limit > 0 && rounds.length >= limit)
        findings.push(finding('stop', 'still-unavailable', [record], rounds, callIndex));
      return;
    }
    const failed = record.outcome !== 'ok';
    const repeated = streak(window, failed ? 0 : requestStart, record, same, undefined);
    if (!failed && repeated.open) repeated.rounds.unshift(...repeatedBefore(window, requestStart, same));
    const polled = hints.maxUnchanged > 0;
    // A polled tool may answer unchanged `maxUnchanged` times after its first answer: the next one stops.
    // Repeats with an attempt to change something between each (an edit between test runs) get one more
    // pass and no warning: "calling it again gives the same result" would not be true advice there; nor
    // for a failure met again in a later request (the user may have fixed it).
    const earlier = (repeated.rounds[0] ?? 0) < (window[requestStart] as RoundRecord).round;
    const limit = polled ? hints.maxUnchanged + 2 : thresholds.repeatLimit + (repeated.everyGapWrote ? 1 : 0);
    const level = levelFor(repeated.rounds.length, limit, polled || !(repeated.everyGapWrote || earlier));
    if (level !== undefined)
      findings.push(
        finding(level, polled ? 'unchanged-poll' : 'exact-repeat', [record], repeated.rounds, callIndex),
      );
    if (polled) return;
    const flipped = flipFlop(window, requestStart, record, thresholds.maxCyclePeriod);
    if (flipped !== undefined)
      findings.push({
        level: 'stop',
        evidence: {
          ...evidence('cycle', flipped.records, 2, flipped.rounds),
          period: flipped.records.length / 2,
        },
      });
    const alike = alikeOf(record, hints);
    if (alike === undefined) return;
    const others = streak(window, requestStart, record, alike.matches, shapeKey);
    const count = others.records.length;
    const alikeLevel = count < 2 ? undefined : levelFor(count, alike.limit(thresholds), alike.warns);
    if (alikeLevel !== undefined)
      findings.push(finding(alikeLevel, 'same-result', others.records, others.rounds, callIndex));
  });
  cycle(window, requestStart, thresholds.maxCyclePeriod, hintsOf, findings);
  noProgress(window, requestStart, thresholds.noProgressRounds, hintsOf, findings);
  return findings;
}

/**
 * Which other calls answer like this one, for the same-result detector:
 * - one tool's content, to calls near this one (the same arguments but for wording or a generated
 *   value: a reworded query, a fresh token), or from a call that follows an answer (a cursor that brought
 *   the same page); distinct entities answered alike are no evidence;
 * - one error, from any call of any tool (another spelling, another tool, one refusal), with two more
 *   allowed and no warning: looking in several places legitimately meets one "not found";
 * - one denial, from any call of any tool (switching tools does not lift a refusal).
 * Undefined when the record is none of these.
 */
function alikeOf(
  record: CallRecord,
  hints: ResolvedHints,
):
  | {
      /** Whether `other` answers like the record; `nearest` is the streak's last match (pages step one by one). */
      readonly matches: (other: CallRecord, nearest: CallRecord) => boolean;
      readonly limit: (thresholds: LoopThresholds) => number;
      readonly warns: boolean;
    }
  | undefined {
  switch (record.outcome) {
    case 'ok':
      if (record.content !== true || hints.sharedResults) return undefined;
      return {
        matches: (other, nearest) =>
          other.result === record.result &&
          other.outcome === 'ok' &&
          other.tool === record.tool &&
          (record.chained === true || gistOf(other) === gistOf(record) || steps(other, nearest)),
        limit: (thresholds) => thresholds.sameResultLimit,
        warns: true,
      };
    case 'error':
      return {
        matches: (other) => other.result === record.result && other.outcome === 'error',
        limit: (thresholds) => thresholds.sameResultLimit + 2,
        warns: false,
      };
    case 'denied':
      return {
        matches: (other) => other.result === record.result && other.outcome === 'denied',
        limit: (thresholds) => thresholds.sameResultLimit,
        warns: true,
      };
    case 'transient':
      return undefined;
    default: {
      const unreachable: never = record.outcome;
      throw new TypeError(`unknown call outcome ${String(unreachable)}`);
    }
  }
}

/** Two reads one page apart: the same arguments but for whole numbers that sum one apart. */
function steps(a: CallRecord, b: CallRecord): boolean {
  return (
    a.pace !== undefined &&
    b.pace !== undefined &&
    a.pace[0] === b.pace[0] &&
    Math.abs(a.pace[1] - b.pace[1]) === 1
  );
}

function shapeKey(record: CallRecord): string {
  return `${record.tool}#${shapeOf(record)}`;
}

interface Streak {
  /** The rounds of the occurrences, oldest first (the current round last). */
  readonly rounds: number[];
  /** The occurrences' records, the current one first. */
  readonly records: CallRecord[];
  /** Every gap between two occurrences held a write of another call. */
  readonly everyGapWrote: boolean;
  /** Nothing new cut the count: it ran back to `from`. */
  readonly open: boolean;
}

/**
 * The occurrences of a situation counted back from the current round's `record`, within [from, now],
 * while nothing new came between them: a round with a novel call (other than the occurrence itself)
 * ends the count, after its own occurrence. With `key`, occurrences must differ by it (different calls
 * answered alike); without, they are repeats of the record.
 */
function streak(
  window: readonly RoundRecord[],
  from: number,
  record: CallRecord,
  matches: (other: CallRecord, nearest: CallRecord) => boolean,
  key: ((other: CallRecord) => string) | undefined,
): Streak {
  const current = window.length - 1;
  const now = window[current] as RoundRecord;
  const rounds = [now.round];
  const records = [record];
  const keys = key === undefined ? undefined : new Set([key(record)]);
  let everyGapWrote = true;
  let gapWrote = wroteBeside(now, record);
  if (newsBeside(now, record)) return { rounds, records, everyGapWrote: false, open: false };
  for (let index = current - 1; index >= from; index--) {
    const round = window[index] as RoundRecord;
    const nearest = records[records.length - 1] as CallRecord;
    const found = round.calls.find(
      (other) =>
        matches(other, nearest) &&
        (keys === undefined || !keys.has((key as (r: CallRecord) => string)(other))),
    );
    if (found === undefined) {
      if (round.calls.some((other) => other.novel === true)) return cut(rounds, records, everyGapWrote);
      if (round.calls.some((other) => other.write === true)) gapWrote = true;
      continue;
    }
    if (keys !== undefined && key !== undefined) keys.add(key(found));
    everyGapWrote &&= gapWrote;
    rounds.unshift(round.round);
    records.push(found);
    if (newsBeside(round, found)) return cut(rounds, records, everyGapWrote);
    gapWrote = wroteBeside(round, found);
  }
  return { rounds, records, everyGapWrote: everyGapWrote && rounds.length >= 2, open: true };
}

function cut(rounds: number[], records: CallRecord[], everyGapWrote: boolean): Streak {
  return { rounds, records, everyGapWrote: everyGapWrote && rounds.length >= 2, open: false };
}

function newsBeside(round: RoundRecord, record: CallRecord): boolean {
  return round.calls.some((other) => other !== record && other.novel === true);
}

function wroteBeside(round: RoundRecord, record: CallRecord): boolean {
  return round.calls.some((other) => other !== record && other.write === true);
}

/** The numbers of the rounds in [from, to] holding a call that matches. */
function roundsWith(
  window: readonly RoundRecord[],
  from: number,
  to: number,
  matches: (other: CallRecord) => boolean,
): number[] {
  const rounds: number[] = [];
  for (let index = from; index <= to; index++) {
    const round = window[index] as RoundRecord;
    if (round.calls.some(matches)) rounds.push(round.round);
  }
  return rounds;
}

/**
 * The rounds of earlier requests with this answered call, from each request that ended in it: the call
 * repeated in every round from its first occurrence to the request's last. A request that moved on after
 * it (re-read the profile, then did its work) made progress; its occurrences do not count.
 */
function repeatedBefore(
  window: readonly RoundRecord[],
  requestStart: number,
  matches: (other: CallRecord) => boolean,
): number[] {
  const rounds: number[] = [];
  let start = 0;
  while (start < requestStart) {
    let end = start;
    const request = window[start]?.request;
    while (end + 1 < requestStart && window[end + 1]?.request === request) end++;
    const found = roundsWith(window, start, end, matches);
    const first = found[0];
    const last = (window[end] as RoundRecord).round;
    if (first !== undefined && found.length >= 2 && found.length === last - first + 1) rounds.push(...found);
    start = end + 1;
  }
  return rounds;
}

/**
 * A repeating sequence of rounds in the request: the last `period` rounds equal the `period` before them,
 * and nothing new told in them.
 */
function cycle(
  window: readonly RoundRecord[],
  requestStart: number,
  maxPeriod: number,
  hintsOf: (tool: string) => ResolvedHints,
  findings: GuardFinding[],
): void {
  const n = window.length;
  if ((window[n - 1] as RoundRecord).calls.some((record) => record.novel === true)) return;
  // Polls and transient failures repeat by nature: a round with one is no part of a cycle.
  const plain = (round: RoundRecord) =>
    round.calls.length > 0 &&
    round.calls.every(
      (record) =>
        record.outcome !== 'transient' && record.novel !== true && hintsOf(record.tool).maxUnchanged === 0,
    );
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
  return a.calls.every((record) => b.calls.some((other) => sameAnswer(other, record)));
}

/**
 * A write that flips between states: the tool's writes in the request, counted back while nothing new
 * came, end in one sequence of moves twice (`high, normal, high, normal`), the wording left out, the
 * moves not all one. Rewording the reason does not make the move new.
 */
function flipFlop(
  window: readonly RoundRecord[],
  requestStart: number,
  record: CallRecord,
  maxPeriod: number,
): Streak | undefined {
  if (record.write !== true || record.outcome !== 'ok') return undefined;
  const moves = streak(
    window,
    requestStart,
    record,
    (other) => other.tool === record.tool && other.write === true && other.outcome === 'ok',
    undefined,
  );
  const gists = moves.records.map(gistOf);
  for (let period = 2; period <= maxPeriod && gists.length >= 2 * period; period++) {
    let repeats = true;
    for (let i = 0; i < period && repeats; i++) repeats = gists[i] === gists[i + period];
    if (repeats && new Set(gists.slice(0, period)).size > 1) {
      const count = 2 * period;
      return {
        rounds: moves.rounds.slice(-count),
        records: moves.records.slice(0, count),
        everyGapWrote: false,
        open: false,
      };
    }
  }
  return undefined;
}

/** Rounds in a row, within the request, that told nothing new and whose every call repeats a call and result of the request. */
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
    const seen = judged.every((record) => {
      if (record.novel === true) return false;
      for (let earlier = requestStart; earlier < index; earlier++)
        if ((window[earlier] as RoundRecord).calls.some((other) => sameAnswer(other, record))) return true;
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

function sameAnswer(a: CallRecord, b: CallRecord): boolean {
  return a.tool === b.tool && shapeOf(a) === shapeOf(b) && a.result === b.result;
}

function levelFor(count: number, limit: number, warns = true): 'warn' | 'stop' | undefined {
  if (limit <= 0) return undefined;
  if (count >= limit) return 'stop';
  if (warns && count === limit - 1 && count >= 2) return 'warn';
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
