import {
  DEFAULT_GUARD_WINDOW_ROUNDS,
  DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND,
  MAX_ORIGINAL_TOOL_NAME_LENGTH,
} from '../core/defaults.js';
import {
  type CallRecord,
  EMPTY_GUARD_STATE,
  type GuardState,
  type RoundRecord,
} from '../core/guard-state.js';
import { MAX_OFFERED_VALUES } from './offered-values.js';

/** A note key names a detector and at most a round's fingerprints: far below this. */
const MAX_NUDGE_KEY_LENGTH = 4096;

/**
 * Reads persisted state defensively: all or nothing. Anything unexpected (an unknown version, a field of
 * the wrong type, a string longer than the guard ever writes, a store that returns something odd) starts
 * afresh; no part of a bad state is kept. Only known fields are copied (no prototype keys carried), and
 * arrays are cut to the guard's bounds before they are checked, so a huge one costs no more than a small.
 * A valid state of version 2 (before requests were told apart) is read with its rounds as request 0; one
 * of version 3 (before novelty and shapes) with its calls as they were, none of them novel.
 */
export function restoreGuardState(value: unknown): GuardState {
  try {
    return restore(value) ?? EMPTY_GUARD_STATE;
  } catch {
    // A throwing getter or Proxy trap.
    return EMPTY_GUARD_STATE;
  }
}

function restore(value: unknown): GuardState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Record<string, unknown>;
  const { schemaVersion, window: rawWindow, nudged: rawNudged, nextRound } = candidate;
  if (schemaVersion !== 2 && schemaVersion !== 3 && schemaVersion !== 4) return undefined;
  if (!Array.isArray(rawWindow) || !Array.isArray(rawNudged)) return undefined;
  if (!isCount(nextRound) || nextRound < 1) return undefined;
  let request = 0;
  if (schemaVersion !== 2) {
    if (!isCount(candidate.request)) return undefined;
    request = candidate.request;
  } else if (!isCount(candidate.staleRounds) || candidate.staleRounds > DEFAULT_GUARD_WINDOW_ROUNDS) {
    return undefined;
  }
  const window: RoundRecord[] = [];
  let previous: RoundRecord | undefined;
  for (const raw of rawWindow.slice(-DEFAULT_GUARD_WINDOW_ROUNDS)) {
    const round = schemaVersion === 2 ? restoreVersion2Round(raw) : restoreRound(raw, schemaVersion);
    if (round === undefined || round.round >= nextRound || round.request > request) return undefined;
    if (previous !== undefined && (round.round <= previous.round || round.request < previous.request))
      return undefined;
    window.push(round);
    previous = round;
  }
  const nudged: string[] = [];
  for (const entry of rawNudged.slice(-DEFAULT_GUARD_WINDOW_ROUNDS)) {
    if (typeof entry !== 'string' || entry.length > MAX_NUDGE_KEY_LENGTH) return undefined;
    nudged.push(entry);
  }
  return { schemaVersion: 4, nextRound, request, window, nudged };
}

function restoreRound(value: unknown, version: 3 | 4): RoundRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { round, request, calls: rawCalls, changed } = value as Record<string, unknown>;
  if (!isCount(round) || !isCount(request) || !Array.isArray(rawCalls)) return undefined;
  // Version 3 marked rounds with a new write; version 4 marks calls that told something new instead.
  if (version === 3 && changed !== undefined && changed !== true) return undefined;
  const calls: CallRecord[] = [];
  for (const raw of rawCalls.slice(0, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND)) {
    const record = version === 4 ? restoreRecord(raw) : restoreVersion3Record(raw);
    if (record === undefined) return undefined;
    calls.push(record);
  }
  return { round, request, calls };
}

function restoreVersion3Record(value: unknown): CallRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { tool, call, result, outcome, write, content } = value as Record<string, unknown>;
  return restoreRecord({ tool, call, result, outcome, write, content });
}

function restoreRecord(value: unknown): CallRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const {
    tool,
    call,
    shape,
    gist,
    pace,
    result,
    frame,
    sum,
    offers,
    outcome,
    write,
    chained,
    content,
    novel,
  } = value as Record<string, unknown>;
  if (typeof tool !== 'string' || tool.length > MAX_ORIGINAL_TOOL_NAME_LENGTH) return undefined;
  if (!isCount(call) || !isCount(result)) return undefined;
  if (![shape, gist, frame, sum].every((digest) => digest === undefined || isCount(digest))) return undefined;
  if ((frame === undefined) !== (sum === undefined)) return undefined;
  if (pace !== undefined && !(Array.isArray(pace) && pace.length === 2 && pace.every(isCount)))
    return undefined;
  if (
    offers !== undefined &&
    (!Array.isArray(offers) || offers.length > MAX_OFFERED_VALUES || !offers.every(isCount))
  )
    return undefined;
  if (outcome !== 'ok' && outcome !== 'error' && outcome !== 'transient' && outcome !== 'denied')
    return undefined;
  if (![write, chained, content, novel].every((flag) => flag === undefined || flag === true))
    return undefined;
  return {
    tool,
    call,
    ...(isCount(shape) ? { shape } : {}),
    ...(isCount(gist) ? { gist } : {}),
    ...(Array.isArray(pace) ? { pace: [pace[0] as number, pace[1] as number] as const } : {}),
    result,
    ...(isCount(frame) && isCount(sum) ? { frame, sum } : {}),
    ...(Array.isArray(offers) ? { offers: [...offers] as number[] } : {}),
    outcome,
    ...(write === true ? { write } : {}),
    ...(chained === true ? { chained } : {}),
    ...(content === true ? { content } : {}),
    ...(novel === true ? { novel } : {}),
  };
}

/** A version 2 round: `transient` flags, no request, no effect or content facts (read as plain reads). */
function restoreVersion2Round(value: unknown): RoundRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { round, calls: rawCalls } = value as Record<string, unknown>;
  if (!isCount(round) || !Array.isArray(rawCalls)) return undefined;
  const calls: CallRecord[] = [];
  for (const raw of rawCalls.slice(0, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND)) {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const { tool, call, result, transient } = raw as Record<string, unknown>;
    if (transient !== undefined && typeof transient !== 'boolean') return undefined;
    const record = restoreRecord({ tool, call, result, outcome: transient === true ? 'transient' : 'ok' });
    if (record === undefined) return undefined;
    calls.push(record);
  }
  return { round, request: 0, calls };
}

/** A safe non-negative integer: what a fingerprint (a 53-bit digest) and a count are. */
function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
