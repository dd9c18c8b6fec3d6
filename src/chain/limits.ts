import { DEFAULT_SESSION_TTL_MS } from '../core/defaults.js';
import type { ErrorClass } from '../core/error-class.js';
import type { Message } from '../core/message.js';
import type { Store, StoreCounter } from '../core/store.js';
import type { ToolErrorCode } from '../core/tool-execution-result.js';
import { storeKey } from '../store/store-key.js';
import type { AnyTool } from '../tools/define-tool.js';
import { effectRules } from '../tools/tool-effect.js';
import { boundedStoreCall } from './bounded-store-call.js';
import { type LimitScope, limitModelText, perToolLimitMessage, totalLimitMessage } from './call-limits.js';
import type { ResolvedPolicy } from './policy.js';
import type { SingleCallOptions } from './tool-runtime.js';

/** Error codes of calls that never reached their tool: they do not count toward the limits. */
const NOT_ADMITTED = new Set(['UNKNOWN_TOOL', 'TOOL_CALL_LIMIT', 'TOO_MANY_INVALID_ATTEMPTS']);
/** Error codes that mean the model sent arguments the tool could not take. */
export const INVALID_ARGUMENT_CODES: ReadonlySet<string> = new Set([
  'INVALID_ARGUMENTS',
  'INVALID_JSON',
  'ARGUMENTS_TOO_LARGE',
  'ARGUMENTS_TOO_DEEP',
  'FORBIDDEN_KEY',
]);

/**
 * Counts of the current turn, derived from the history alone (a turn starts at the last user message).
 * Nothing is kept between executions, so one runtime can serve any number of turns at once.
 */
export type TurnCounts = NonNullable<SingleCallOptions['counts']>;

/** Counts of a turn with no call yet. */
export function emptyTurnCounts(): TurnCounts {
  return { total: 0, perTool: new Map(), invalidPerTool: new Map() };
}

/**
 * Counts the calls of the current turn from its tool messages. A tool message without a name takes the
 * name of the assistant message's call with its id (a history stored by other code may drop names).
 */
export function countTurnCalls(
  messages: readonly Message[],
  isExcluded: (toolName: string) => boolean,
): TurnCounts {
  const counts = emptyTurnCounts();
  // Tool messages without a name, by call id, until the assistant message that made the call is reached.
  let unnamed: Map<string, Array<string | undefined>> | undefined;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (typeof message !== 'object' || message === null) continue;
    if (message.role === 'user') break;
    if (message.role === 'assistant') {
      if (unnamed !== undefined && unnamed.size > 0)
        nameFromCalls(message.toolCalls, unnamed, (name, code) =>
          addCall(counts, { name, errorCode: code }, isExcluded),
        );
      continue;
    }
    if (message.role !== 'tool') continue;
    const code = message.errorCode;
    if (code !== undefined && NOT_ADMITTED.has(code)) continue;
    if (typeof message.name !== 'string' || message.name === '') {
      const id: unknown = message.toolCallId;
      if (typeof id !== 'string') {
        counts.total++;
        continue;
      }
      unnamed ??= new Map();
      const codes = unnamed.get(id);
      if (codes === undefined) unnamed.set(id, [code]);
      else codes.push(code);
      continue;
    }
    addCall(counts, { name: message.name, errorCode: code }, isExcluded);
  }
  // Names that no call gave: the calls still count toward the total.
  if (unnamed !== undefined) for (const codes of unnamed.values()) counts.total += codes.length;
  return counts;
}

/** Counts the unnamed tool messages answering these calls under the calls' names (`add`), and forgets them. */
function nameFromCalls(
  calls: unknown,
  unnamed: Map<string, Array<string | undefined>>,
  add: (name: string, code: string | undefined) => void,
): void {
  if (!Array.isArray(calls)) return;
  for (const call of calls as readonly unknown[]) {
    if (typeof call !== 'object' || call === null) continue;
    const { id, name } = call as { id?: unknown; name?: unknown };
    const codes = typeof id === 'string' ? unnamed.get(id) : undefined;
    if (codes === undefined || typeof name !== 'string') continue;
    for (const code of codes) add(name, code);
    unnamed.delete(id as string);
  }
}

/** Adds one tool message's call (see `countTurnCalls`). */
function addCall(
  counts: TurnCounts,
  { name, errorCode: code }: { readonly name: string; readonly errorCode: string | undefined },
  isExcluded: (toolName: string) => boolean,
): void {
  if (code !== undefined && NOT_ADMITTED.has(code)) return;
  if (code !== undefined && INVALID_ARGUMENT_CODES.has(code)) increment(counts.invalidPerTool, name);
  if (isExcluded(name)) return;
  increment(counts.perTool, name);
  counts.total++;
}

/** Adds one to `key`'s count. */
export function increment(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Takes one from `key`'s count (a count of 0 is dropped). */
export function decrement(map: Map<string, number>, key: string): void {
  const value = (map.get(key) ?? 0) - 1;
  if (value > 0) map.set(key, value);
  else map.delete(key);
}

/** What the store said about one call's place in the session's limits. */
export type Reservation =
  /** No shared limit applies (no session, an excluded tool, no limit set): nothing was counted. */
  | { readonly type: 'none' }
  /** Counted: the keys to give back should the call not run after all. */
  | { readonly type: 'reserved'; readonly keys: readonly string[] }
  | { readonly type: 'limited'; readonly scope: LimitScope; readonly limit: number }
  /** The store failed: nothing is known to be counted. */
  | { readonly type: 'store-failed'; readonly error: unknown };

export interface ReservationScope {
  readonly sessionId: string | undefined;
  readonly turnId: string | undefined;
  /** The execution's signal: an abort (or the run's time budget) ends a wait for the store. */
  readonly signal?: AbortSignal | undefined;
  /** The run's ceiling of model calls, which default turn limits are raised to (see `TurnCounts`). */
  readonly ceiling?: number | undefined;
}

/**
 * Counts a call in the store against the limits shared by every process serving the session: the turn's
 * (when there is a turn id) and the session's (`limits.perSession`). One `reserve` of all of them at once:
 * one round trip, all or nothing, so of 100 concurrent calls against a limit of 40 exactly 40 pass. A
 * reservation that reaches the store after this process gave up on it counts nothing (its deadline), and
 * one that lands after an abort ended the wait is given back.
 */
export async function reserveCall(
  tool: AnyTool,
  scope: ReservationScope,
  policy: ResolvedPolicy,
): Promise<Reservation> {
  const counters = sharedCounters(tool, scope, policy);
  if (counters === undefined) return { type: 'none' };
  try {
    const reserved = await boundedStoreCall(
      'reserve',
      (deadline) =>
        policy.store.reserve(
          counters.map(({ key, limit }) => ({ key, limit })),
          { ttlMs: DEFAULT_SESSION_TTL_MS, deadline },
        ),
      scope.signal,
      // Counted after an abort ended the wait: the call will not run, so the count is given back.
      (late) => {
        if (late.ok) policy.store.release(counters.map((counter) => counter.key)).catch(() => {});
      },
    );
    if (reserved.ok) return { type: 'reserved', keys: counters.map((counter) => counter.key) };
    return limitedBy(counters, reserved.blocked);
  } catch (error) {
    // Aborted while waiting: the call goes on to fail as aborted where every call does (it will not run).
    if (scope.signal?.aborted === true) return { type: 'none' };
    return { type: 'store-failed', error };
  }
}

/** A store counter of a limit, and which limit it is. */
export type SharedCounter = StoreCounter & { readonly scope: LimitScope };

/** The reservation refused by the counter at `blocked` (its index). */
export function limitedBy(
  counters: readonly SharedCounter[],
  blocked: number,
): Extract<Reservation, { type: 'limited' }> {
  const counter = counters[blocked] ?? counters[0];
  if (counter === undefined) throw new TypeError('the store named no counter it refused');
  return { type: 'limited', scope: counter.scope, limit: counter.limit };
}

/**
 * The store counters a call counts toward: the turn's limits (with a turn id) and the session's
 * (`limits.perSession`); undefined when none applies (no session, an excluded tool, no limit set).
 */
export function sharedCounters(
  tool: AnyTool,
  scope: ReservationScope,
  policy: ResolvedPolicy,
): readonly SharedCounter[] | undefined {
  const { sessionId, turnId } = scope;
  const { limits } = policy;
  if (sessionId === undefined || limits.isExcluded(tool.name)) return undefined;
  const counters: SharedCounter[] = [];
  if (turnId !== undefined) {
    const turn = ['calls', 'turn', turnId];
    counters.push({
      key: storeKey(sessionId, ...turn, tool.name),
      limit: limits.limitFor(tool, scope.ceiling),
      scope: 'per-tool',
    });
    const total = limits.totalFor(scope.ceiling);
    counters.push({ key: storeKey(sessionId, ...turn), limit: total, scope: 'total' });
  }
  const perTool = limits.sessionLimitFor(tool);
  if (perTool !== undefined) {
    counters.push({
      key: storeKey(sessionId, 'calls', tool.name),
      limit: perTool,
      scope: 'session-per-tool',
    });
  }
  if (limits.sessionTotal !== undefined) {
    counters.push({ key: storeKey(sessionId, 'calls'), limit: limits.sessionTotal, scope: 'session-total' });
  }
  return counters.length === 0 ? undefined : counters;
}

/** What a call added to the turn's counts and the store's, so a call that does not run can give it back. */
export interface Counted {
  /** Counted toward the per-tool and total limits. */
  readonly admitted: boolean;
  /** Counted as an invalid-argument attempt. */
  readonly invalid: boolean;
  /** The store counters this call was counted in (see `reserveCall`): given back when it does not run. */
  readonly reserved?: readonly string[];
}

/** A call the limits let through, and where it was counted. */
export interface Admission {
  readonly type: 'admitted';
  /** Counted toward the turn's per-tool and total limits. */
  readonly admitted: boolean;
  /** The store counters it was counted in. */
  readonly reserved?: readonly string[];
  /** The store failed to count the call, and the read tool runs uncounted (`onStoreFailure: 'open'`). */
  readonly storeFailure?: unknown;
  /** The store counters of an idempotent write, counted by its claim (in the same round trip). */
  readonly deferredCounters?: readonly SharedCounter[];
}

/** A call a limit (or a failed store) refuses: what the model is told, and why. Nothing stays counted. */
export interface LimitRefusal {
  readonly type: 'refused';
  readonly code: ToolErrorCode;
  readonly text: readonly string[];
  readonly limit?: { readonly scope: LimitScope; readonly limit: number };
  readonly errorClass?: ErrorClass;
  readonly error?: unknown;
  readonly storeFailed?: true;
}

/** What the limits of one call look at. */
export interface LimitContext {
  readonly policy: ResolvedPolicy;
  /** The turn's counts, updated here; undefined: no turn limits apply. */
  readonly counts: TurnCounts | undefined;
  /** The session and turn whose limits are shared through the store. */
  readonly scope?: ReservationScope | undefined;
}

const COUNTED: Admission = { type: 'admitted', admitted: true };
const UNCOUNTED: Admission = { type: 'admitted', admitted: false };

/**
 * Admits a call to `tool` under the turn's limits and failed attempts (`counts`), and counts it there. It
 * is counted before anything is awaited: calls admitted at the same time against one turn's counts (the AI
 * SDK starts a step's calls at once) must not both pass a limit of one. With a session, `admitShared`
 * comes next.
 */
export function admitCall(tool: AnyTool, context: LimitContext): Admission | LimitRefusal {
  const { policy, counts } = context;
  const name = tool.name;
  const counted = counts !== undefined && !policy.limits.isExcluded(name);
  if (counts !== undefined && counted) {
    const limit = policy.limits.limitFor(tool, counts.ceiling);
    if ((counts.perTool.get(name) ?? 0) >= limit) {
      return refused('TOOL_CALL_LIMIT', perToolLimitMessage(limit, name), {
        limit: { scope: 'per-tool', limit },
      });
    }
    const total = policy.limits.totalFor(counts.ceiling);
    if (counts.total >= total) {
      return refused('TOOL_CALL_LIMIT', totalLimitMessage(total), {
        limit: { scope: 'total', limit: total },
      });
    }
  }
  const invalid = counts?.invalidPerTool.get(name) ?? 0;
  if (invalid >= policy.maxInvalidAttempts) {
    return refused(
      'TOO_MANY_INVALID_ATTEMPTS',
      `Tool '${name}' was called with invalid arguments ${invalid} times in this turn; it will not be tried again. Answer with what you have or use another tool.`,
    );
  }
  if (counts !== undefined && counted) {
    increment(counts.perTool, name);
    counts.total++;
  }
  return counted ? COUNTED : UNCOUNTED;
}

/**
 * Counts an admitted call (`admitted`, see `admitCall`) against the limits the session's processes share
 * through the store (`scope`); an idempotent write's counters are left to its claim. A refusal gives the
 * turn's count back.
 */
export async function admitShared(
  tool: AnyTool,
  admission: Admission,
  context: LimitContext & { readonly scope: ReservationScope },
): Promise<Admission | LimitRefusal> {
  const { policy, counts, scope } = context;
  const name = tool.name;
  const counted = admission.admitted;
  if (tool.idempotency !== undefined) {
    const deferred = sharedCounters(tool, scope, policy);
    if (deferred !== undefined) return { type: 'admitted', admitted: counted, deferredCounters: deferred };
  }
  const reservation = await reserveCall(tool, scope, policy);
  switch (reservation.type) {
    case 'none':
      return counted ? COUNTED : UNCOUNTED;
    case 'reserved':
      return { type: 'admitted', admitted: counted, reserved: reservation.keys };
    case 'limited': {
      if (counts !== undefined && counted) takeBack(counts, name);
      const limit = { scope: reservation.scope, limit: reservation.limit };
      return refused('TOOL_CALL_LIMIT', limitModelText(limit, name), { limit });
    }
    case 'store-failed':
      if (effectRules(tool.effect).closedOnStoreFailure || policy.onStoreFailure === 'closed') {
        if (counts !== undefined && counted) takeBack(counts, name);
        return refused('TOOL_UNAVAILABLE', STORE_UNAVAILABLE_TEXT(name), {
          errorClass: 'transient',
          error: reservation.error,
          storeFailed: true,
        });
      }
      return { type: 'admitted', admitted: counted, storeFailure: reservation.error };
    default: {
      const unreachable: never = reservation;
      throw new TypeError(`unknown reservation ${String(unreachable)}`);
    }
  }
}

/** What the model is told when the store that counts calls fails: the tool did not run, and may later. */
const STORE_UNAVAILABLE_TEXT = (name: string) =>
  `Tool '${name}' is unavailable right now; the call was not run. Do not assume it ran; answer with what you have or try again later.`;

function refused(
  code: ToolErrorCode,
  text: string,
  detail: Omit<LimitRefusal, 'type' | 'code' | 'text'> = {},
): LimitRefusal {
  return { type: 'refused', code, text: [text], ...detail };
}

/** Gives back one admitted call to `name`. */
function takeBack(counts: TurnCounts, name: string): void {
  counts.perTool.set(name, (counts.perTool.get(name) ?? 1) - 1);
  counts.total--;
}

/**
 * Gives back what calls that will not run now added to the turn's counts, and to the store's counters. A
 * store that fails to take them back leaves them counted (a limit errs toward fewer calls).
 */
export function giveBack(
  counts: TurnCounts | undefined,
  calls: readonly (Counted & { readonly toolName: string })[],
  store: Store,
): void {
  const reserved = calls.flatMap((entry) => entry.reserved ?? []);
  if (reserved.length > 0)
    Promise.resolve()
      .then(() => store.release(reserved))
      .catch(() => {});
  if (counts === undefined) return;
  for (const entry of calls) {
    if (entry.admitted) {
      decrement(counts.perTool, entry.toolName);
      counts.total--;
    }
    if (entry.invalid) decrement(counts.invalidPerTool, entry.toolName);
  }
}
