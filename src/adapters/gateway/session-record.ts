import { DEFAULT_SESSION_TTL_MS } from '../../core/defaults.js';
import { EMPTY_GUARD_STATE, type GuardState } from '../../core/guard-state.js';
import type { LoopUsage } from '../../core/loop-outcome.js';
import type { Store } from '../../core/store.js';
import { restoreGuardState } from '../../guard/restore-guard-state.js';
import { storeKey } from '../../store/store-key.js';

/**
 * What the gateway keeps per session in the store (one entry, one read and at most one write per
 * request): the turn it last saw, the guard's memory when that turn began and after its rounds so far, and
 * what of the turn is already in the audit. Everything else is read from the history of each request.
 */
export interface SessionRecord {
  readonly schemaVersion: 1;
  /** The anchor of the turn the record is about. */
  readonly turn: string;
  /** The guard's memory when the turn began (the end of the session's turn before it). */
  readonly start: GuardState;
  /** The guard's memory after the turn's rounds so far. */
  readonly end: GuardState;
  /** Rounds of the turn whose calls are in the audit. */
  readonly audited: number;
  /** The turn's end (its run record) is in the audit. */
  readonly closed: boolean;
  /** Tokens of the turn's answers so far. */
  readonly usage: LoopUsage;
  /** When the gateway last passed an answer with calls to the app (ms since the epoch): their round's start. */
  readonly askedAt?: number;
}

/** A session's record as loaded, with the version a save names. */
export interface LoadedSession {
  readonly record: SessionRecord | undefined;
  /** 0 when the store held none. */
  readonly version: number;
}

const ZERO_USAGE: LoopUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

export function sessionKey(sessionId: string): string {
  return storeKey(sessionId, 'gateway');
}

/** Loads the session's record; a stored value that is not one (another version, a hostile value) starts afresh. */
export async function loadSession(store: Store, sessionId: string): Promise<LoadedSession> {
  const entry = await store.get(sessionKey(sessionId));
  if (entry === undefined) return { record: undefined, version: 0 };
  return { record: restoreSessionRecord(entry.value), version: entry.version };
}

/**
 * Saves the record by compare-and-set on the version it was loaded at. When another request of the session
 * saved in between, this one's record is dropped: the other's was read from a history as new as this one's,
 * and a second try would cost a third round trip.
 */
export async function saveSession(
  store: Store,
  sessionId: string,
  loaded: LoadedSession,
  record: SessionRecord,
): Promise<boolean> {
  const written = await store.set(sessionKey(sessionId), record, {
    ifVersion: loaded.version,
    ttlMs: DEFAULT_SESSION_TTL_MS,
  });
  return written.ok;
}

/** The guard's memory when the turn `anchor` began: the record's start for its turn, else the end of the turn before. */
export function turnStart(record: SessionRecord | undefined, anchor: string): GuardState {
  if (record === undefined) return EMPTY_GUARD_STATE;
  return record.turn === anchor ? record.start : record.end;
}

/** The record's figures for the turn `anchor`: what it already audited, its tokens; nothing for another turn. */
export function turnSoFar(
  record: SessionRecord | undefined,
  anchor: string,
): Pick<SessionRecord, 'audited' | 'closed' | 'usage' | 'askedAt'> {
  if (record === undefined || record.turn !== anchor) return { audited: 0, closed: false, usage: ZERO_USAGE };
  return record;
}

/** Reads a stored record defensively: anything unexpected is no record (the session starts afresh). */
export function restoreSessionRecord(value: unknown): SessionRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { schemaVersion, turn, start, end, audited, closed, usage, askedAt } = value as Record<
    string,
    unknown
  >;
  if (schemaVersion !== 1 || typeof turn !== 'string' || turn.length > 200) return undefined;
  if (!isCount(audited) || typeof closed !== 'boolean') return undefined;
  if (askedAt !== undefined && !isCount(askedAt)) return undefined;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { inputTokens, outputTokens, totalTokens } = usage as Record<string, unknown>;
  if (!isCount(inputTokens) || !isCount(outputTokens) || !isCount(totalTokens)) return undefined;
  return {
    schemaVersion: 1,
    turn,
    start: restoreGuardState(start),
    end: restoreGuardState(end),
    audited,
    closed,
    usage: { inputTokens, outputTokens, totalTokens },
    ...(askedAt === undefined ? {} : { askedAt }),
  };
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
