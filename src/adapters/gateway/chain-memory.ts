import { DEFAULT_GATEWAY_CHAIN_TTL_MS, MAX_GATEWAY_CHAIN_MEMORY_BYTES } from '../../core/defaults.js';
import type { Store } from '../../core/store.js';
import { storeKey } from '../../store/store-key.js';
import { type LoadedSession, restoreSessionRecord, type SessionRecord } from './session-record.js';
import type { ChainMemory, HistoryCall, HistoryRound, IdentityHints, WireCall } from './wire.js';

/**
 * What the gateway keeps under an answer's id: the chain's memory, and the session's record as this answer
 * left it (its id, and the version the session's own entry took with it), so a chained request reads
 * everything it needs in one round trip. A session the app names by its header is read beside the record,
 * in the same round trip: the record carries no copy of it.
 */
export interface ChainRecord {
  readonly memory: ChainMemory;
  readonly session?: { readonly id: string; readonly loaded: LoadedSession };
}

/** The session's record a chain record carries, as it is saved. */
export interface ChainSession {
  readonly id: string;
  readonly version: number;
  readonly record: SessionRecord;
}

/**
 * Where a memory is kept: under an answer's id (a request names it as `previous_response_id`), or under a
 * conversation the provider keeps (`conversation`): there it is the memory of the conversation's last answer.
 */
export type ChainKey = { readonly answer: string } | { readonly conversation: string };

function keyOf(key: ChainKey): string {
  return 'answer' in key
    ? storeKey(key.answer, 'gateway-chain')
    : storeKey(key.conversation, 'gateway-conversation');
}

/**
 * The record kept under `key`; undefined when there is none (never kept, expired, too large, or a stored
 * value that is not one). Never rejects: a store that fails is no memory.
 */
export async function loadChainRecord(store: Store, key: ChainKey): Promise<ChainRecord | undefined> {
  try {
    const entry = await store.get(keyOf(key));
    return entry === undefined ? undefined : restoreChainRecord(entry.value);
  } catch {
    return undefined;
  }
}

/**
 * Keeps the memory under `key`, with the session's record when given (with a TTL); false when its texts
 * were too large or the store failed.
 */
export async function saveChainRecord(
  store: Store,
  key: ChainKey,
  memory: ChainMemory,
  session: ChainSession | undefined,
): Promise<boolean> {
  if (textBytes(memory) > MAX_GATEWAY_CHAIN_MEMORY_BYTES) return false;
  const value = session === undefined ? memory : { ...memory, session };
  try {
    const written = await store.set(keyOf(key), value, { ttlMs: DEFAULT_GATEWAY_CHAIN_TTL_MS });
    return written.ok;
  } catch {
    return false;
  }
}

/**
 * The bytes of the memory's texts (its opening, and its calls' arguments and results): what can grow
 * without bound. The rest (ids, names, the session's record) is small and bounded; the store encodes the
 * whole once, so it is not encoded here to be measured.
 */
function textBytes(memory: ChainMemory): number {
  let bytes = Buffer.byteLength(memory.identity.opening);
  for (const round of memory.rounds)
    for (const call of round.calls)
      bytes += Buffer.byteLength(call.arguments) + Buffer.byteLength(call.result?.content ?? '');
  for (const call of memory.pending) bytes += Buffer.byteLength(call.arguments);
  return bytes;
}

/** Reads a stored chain record defensively: a session part that is not one is left out. */
export function restoreChainRecord(value: unknown): ChainRecord | undefined {
  const memory = restoreChainMemory(value);
  if (memory === undefined) return undefined;
  const session = isObject(value) ? value.session : undefined;
  if (!isObject(session) || typeof session.id !== 'string' || !Number.isSafeInteger(session.version))
    return { memory };
  const record = restoreSessionRecord(session.record);
  const version = session.version as number;
  if (record === undefined || version < 1) return { memory };
  return { memory, session: { id: session.id, loaded: { record, version } } };
}

/** Reads a stored memory defensively: anything unexpected is none. */
export function restoreChainMemory(value: unknown): ChainMemory | undefined {
  if (!isObject(value)) return undefined;
  const { identity, anchor, rounds, pending, owed } = value;
  if (!Array.isArray(owed) || !owed.every((id) => typeof id === 'string')) return undefined;
  if (!isObject(identity) || typeof identity.opening !== 'string') return undefined;
  if (typeof anchor !== 'string' || anchor.length > 200) return undefined;
  if (!Array.isArray(rounds) || !Array.isArray(pending)) return undefined;
  const restoredRounds: HistoryRound[] = [];
  for (const round of rounds) {
    if (!isObject(round) || !Array.isArray(round.calls)) return undefined;
    const calls: HistoryCall[] = [];
    for (const call of round.calls) {
      const read = callOf(call);
      if (read === undefined) return undefined;
      const result = call.result;
      if (result === undefined) calls.push(read);
      else if (isObject(result) && typeof result.content === 'string' && typeof result.isError === 'boolean')
        calls.push({ ...read, result: { content: result.content, isError: result.isError } });
      else return undefined;
    }
    restoredRounds.push({ calls });
  }
  const restoredPending = pending.map(callOf);
  if (restoredPending.some((call) => call === undefined)) return undefined;
  const hints: IdentityHints = {
    opening: identity.opening,
    ...(typeof identity.conversation === 'string' ? { conversation: identity.conversation } : {}),
    ...(typeof identity.user === 'string' ? { user: identity.user } : {}),
  };
  return {
    identity: hints,
    anchor,
    // A record from before `kept` was written kept results.
    kept: value.kept === 'calls' ? 'calls' : 'results',
    rounds: restoredRounds,
    pending: restoredPending as WireCall[],
    owed: owed as string[],
  };
}

function callOf(value: unknown): WireCall | undefined {
  if (!isObject(value)) return undefined;
  const { id, name, arguments: args } = value;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof args !== 'string') return undefined;
  return { id, name, arguments: args };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
