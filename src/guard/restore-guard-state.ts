import { DEFAULT_GUARD_WINDOW_ROUNDS, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../defaults.js';
import { type CallRecord, EMPTY_GUARD_STATE, type GuardState, type RoundRecord } from './guard-types.js';

/**
 * Reads persisted state defensively: anything unexpected (another version, hostile JSON, a store that
 * returns something odd) starts afresh, and only fields it knows are copied (no prototype keys carried).
 * Arrays are cut to the guard's bounds before they are checked, so a huge one costs no more than a small.
 */
export function restoreGuardState(value: unknown): GuardState {
  try {
    return restore(value);
  } catch {
    // A throwing getter or Proxy trap.
    return EMPTY_GUARD_STATE;
  }
}

function restore(value: unknown): GuardState {
  if (typeof value !== 'object' || value === null) return EMPTY_GUARD_STATE;
  const candidate = value as Record<string, unknown>;
  const { window: rawWindow, nudged: rawNudged } = candidate;
  if (candidate.schemaVersion !== 2 || !Array.isArray(rawWindow) || !Array.isArray(rawNudged)) {
    return EMPTY_GUARD_STATE;
  }
  const window: RoundRecord[] = [];
  for (const raw of rawWindow.slice(-DEFAULT_GUARD_WINDOW_ROUNDS)) {
    const round = restoreRound(raw);
    if (round !== undefined) window.push(round);
  }
  const nextRound = Number.isSafeInteger(candidate.nextRound)
    ? (candidate.nextRound as number)
    : (window.at(-1)?.round ?? 0) + 1;
  const staleRounds = isCount(candidate.staleRounds) ? candidate.staleRounds : 0;
  const nudged = rawNudged
    .slice(-DEFAULT_GUARD_WINDOW_ROUNDS)
    .filter((entry): entry is string => typeof entry === 'string');
  return { schemaVersion: 2, nextRound, window, staleRounds, nudged };
}

/** A round whose calls are all well formed, or undefined (the round is dropped). */
function restoreRound(value: unknown): RoundRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { round, calls: rawCalls } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(round) || !Array.isArray(rawCalls)) return undefined;
  const calls: CallRecord[] = [];
  for (const raw of rawCalls.slice(0, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND)) {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const { tool, call, result, transient } = raw as Record<string, unknown>;
    if (typeof tool !== 'string' || !isCount(call) || !isCount(result)) return undefined;
    calls.push(transient === true ? { tool, call, result, transient: true } : { tool, call, result });
  }
  return { round: round as number, calls };
}

/** A safe non-negative integer: what a fingerprint (a 53-bit digest) and a count are. */
function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
