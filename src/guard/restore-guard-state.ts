import {
  DEFAULT_GUARD_WINDOW_ROUNDS,
  DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND,
  MAX_ORIGINAL_TOOL_NAME_LENGTH,
} from '../defaults.js';
import { type CallRecord, EMPTY_GUARD_STATE, type GuardState, type RoundRecord } from './guard-types.js';

/** A nudge key names a detector and at most a round's fingerprints: far below this. */
const MAX_NUDGE_KEY_LENGTH = 4096;

/**
 * Reads persisted state defensively: all or nothing. Anything unexpected (another version, a field of the
 * wrong type, a string longer than the guard ever writes, a store that returns something odd) starts
 * afresh; no part of a bad state is kept. Only known fields are copied (no prototype keys carried), and
 * arrays are cut to the guard's bounds before they are checked, so a huge one costs no more than a small.
 * Counts are bounded by what the guard can use (`staleRounds` by the window), so a hostile number cannot
 * make a round cost more.
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
  const { window: rawWindow, nudged: rawNudged, nextRound, staleRounds } = candidate;
  if (candidate.schemaVersion !== 2 || !Array.isArray(rawWindow) || !Array.isArray(rawNudged))
    return undefined;
  if (!isCount(nextRound) || nextRound < 1 || !isCount(staleRounds)) return undefined;
  const window: RoundRecord[] = [];
  for (const raw of rawWindow.slice(-DEFAULT_GUARD_WINDOW_ROUNDS)) {
    const round = restoreRound(raw);
    if (round === undefined || round.round >= nextRound) return undefined;
    window.push(round);
  }
  const nudged: string[] = [];
  for (const entry of rawNudged.slice(-DEFAULT_GUARD_WINDOW_ROUNDS)) {
    if (typeof entry !== 'string' || entry.length > MAX_NUDGE_KEY_LENGTH) return undefined;
    nudged.push(entry);
  }
  return {
    schemaVersion: 2,
    nextRound,
    window,
    staleRounds: Math.min(staleRounds, DEFAULT_GUARD_WINDOW_ROUNDS),
    nudged,
  };
}

function restoreRound(value: unknown): RoundRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { round, calls: rawCalls } = value as Record<string, unknown>;
  if (!isCount(round) || !Array.isArray(rawCalls)) return undefined;
  const calls: CallRecord[] = [];
  for (const raw of rawCalls.slice(0, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND)) {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const { tool, call, result, transient } = raw as Record<string, unknown>;
    if (typeof tool !== 'string' || tool.length > MAX_ORIGINAL_TOOL_NAME_LENGTH) return undefined;
    if (!isCount(call) || !isCount(result)) return undefined;
    if (transient !== undefined && typeof transient !== 'boolean') return undefined;
    calls.push(transient === true ? { tool, call, result, transient: true } : { tool, call, result });
  }
  return { round, calls };
}

/** A safe non-negative integer: what a fingerprint (a 53-bit digest) and a count are. */
function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
