import { DEFAULT_SESSION_TTL_MS } from '../core/defaults.js';
import type { StoreCounter } from '../core/store.js';
import { storeKey } from '../store/store-key.js';
import type { AnyTool } from '../tools/define-tool.js';
import { boundedStoreCall } from './bounded-store-call.js';
import type { LimitScope } from './call-limits.js';
import type { ResolvedPolicy } from './policy.js';

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
      limit: limits.limitFor(tool),
      scope: 'per-tool',
    });
    counters.push({ key: storeKey(sessionId, ...turn), limit: limits.total, scope: 'total' });
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
