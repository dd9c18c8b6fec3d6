import { DEFAULT_SESSION_TTL_MS } from '../../core/defaults.js';
import type { StoreSetResult } from '../../core/store.js';
import { errorFields } from '../../core/tool-event.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { IdempotencySettings } from '../../tools/idempotency-options.js';
import { boundedStoreCall } from '../bounded-store-call.js';
import type { SharedCounter } from '../limits.js';
import type { RunContext, RunningCall } from '../run-context.js';
import type { IdempotencyKey } from './idempotency-key.js';
import type { IdempotencyRecord } from './idempotency-record.js';
import { latestWrite } from './latest-write.js';
import { leaseFor } from './lease.js';

/** One idempotent call: its tool and settings, its record, and the execution it runs in. */
export interface IdempotentCall {
  readonly tool: AnyTool;
  readonly settings: IdempotencySettings;
  readonly key: IdempotencyKey;
  readonly call: RunningCall;
  readonly context: RunContext;
  /** The store counters of the call's limits, counted by its first claim (see `deferredCounters`). */
  readonly counters?: readonly SharedCounter[] | undefined;
}

/** The record claiming the call for this process, with its lease; `claim` is this claim's own random id. */
export function startedRecord(idempotent: IdempotentCall, claim: string): IdempotencyRecord {
  return {
    v: 1,
    state: 'started',
    argumentsDigest: idempotent.key.argumentsDigest,
    toolCallId: idempotent.call.base.toolCallId,
    claim,
    startedAt: Date.now(),
    leaseMs: leaseFor(idempotent.tool, idempotent.settings, idempotent.context.policy),
  };
}

/**
 * The record's store calls, each bounded (a store that hangs fails as unavailable); writes carry the TTL.
 * Claims also end at the execution's signal (before the tool ran, giving up loses nothing); the record of
 * a result is written whatever the signal says.
 */
export const recordStore = {
  /**
   * Claims the record at `ifVersion` (0: only where there is none) in one store call: the started record,
   * the scope's latest write, and the call counted against its limits (`counters`), all or nothing. A
   * refused claim hands back the record and the scope's latest write as they are. It carries the wait's
   * deadline: a claim that reaches the store after the wait gave up (a store that stalled) writes and
   * counts nothing, so it neither blocks the next identical call nor counts a call that never ran; one
   * that lands before it, after an abort ended the wait, is undone (`undoClaim`).
   */
  claim: (idempotent: IdempotentCall, claim: string, ifVersion: number): Promise<StoreSetResult> => {
    const { key, settings, counters } = idempotent;
    return boundedStoreCall(
      'set',
      (deadline) =>
        key.store.set(key.recordKey, startedRecord(idempotent, claim), {
          ifVersion,
          deadline,
          ttlMs: settings.ttlMs,
          also: { key: key.latestKey, value: latestWrite(claim), ttlMs: settings.ttlMs },
          ...(counters === undefined ? {} : { reserve: countersOf(counters) }),
        }),
      idempotent.context.signal,
      (written) => {
        if (written.ok) void undoClaim(idempotent, written.version);
      },
    );
  },
  /** Writes what became of a claimed call, at the claim's version. */
  settle: (
    idempotent: IdempotentCall,
    value: IdempotencyRecord,
    ifVersion: number,
  ): Promise<StoreSetResult> =>
    boundedStoreCall('set', () =>
      idempotent.key.store.set(idempotent.key.recordKey, value, {
        ifVersion,
        ttlMs: idempotent.settings.ttlMs,
      }),
    ),
  delete: (idempotent: IdempotentCall, ifVersion: number): Promise<boolean> =>
    boundedStoreCall('delete', () => idempotent.key.store.delete(idempotent.key.recordKey, { ifVersion })),
};

/**
 * Gives back a claim that landed after its call was given up (an abort ended the wait first): its record
 * is deleted at the claim's version and its counters take 1 back, as if it never landed. A store that
 * fails here leaves it, with an event (`not-released`).
 */
async function undoClaim(idempotent: IdempotentCall, version: number): Promise<void> {
  const { key, counters } = idempotent;
  try {
    await boundedStoreCall('delete', () => key.store.delete(key.recordKey, { ifVersion: version }));
    if (counters !== undefined) {
      await boundedStoreCall('release', () => key.store.release(counters.map((counter) => counter.key)));
    }
  } catch (error) {
    reportRecord(idempotent, 'not-released', error);
  }
}

function countersOf(counters: readonly SharedCounter[]) {
  return { counters: counters.map(({ key, limit }) => ({ key, limit })), ttlMs: DEFAULT_SESSION_TTL_MS };
}

/** Emits what became of a record beyond the claim and the result (`idempotency-warn`). Never the key. */
export function reportRecord(
  idempotent: IdempotentCall,
  action: 'taken-over' | 'outcome-unknown' | 'not-recorded' | 'not-released',
  error?: unknown,
): void {
  const { events } = idempotent.context;
  if (!events.listening) return;
  events.emit({
    type: 'idempotency-warn',
    ...idempotent.call.base,
    argumentsSummary: idempotent.call.argumentsSummary,
    action,
    ...(error === undefined ? {} : errorFields(error, events.includeContent)),
  });
}
