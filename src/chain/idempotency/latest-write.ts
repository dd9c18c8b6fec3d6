import { StoreError } from '../../core/errors/store-error.js';
import type { StoreEntry } from '../../core/store.js';
import type { IdempotencyRecord } from './idempotency-record.js';

/**
 * What an idempotency scope keeps beside its records: the claim of the latest write started in it. Every
 * claim writes it in the same store call as its record (`set` with `also`), so a record whose claim is
 * still the latest one is of a write that no other write has followed.
 */
export interface LatestWrite {
  readonly v: 1;
  readonly claim: string;
}

export function latestWrite(claim: string): LatestWrite {
  return { v: 1, claim };
}

/** The claim in the scope's stored latest write; undefined when there is none (or it expired). */
export function latestClaimOf(entry: StoreEntry | undefined): string | undefined {
  if (entry === undefined) return undefined;
  const value = entry.value as Partial<Record<string, unknown>> | null;
  if (typeof value !== 'object' || value === null || value.v !== 1 || typeof value.claim !== 'string') {
    throw new StoreError({ reason: 'corrupt', operation: 'get', message: 'not a latest write of version 1' });
  }
  return value.claim;
}

/**
 * Whether a record answers this call as a true duplicate: the call it is of, sent again (the same tool
 * call id: a retry, a resumed round, a re-sent history); a tool's own key (which names the action: the
 * same order id is the same order whatever ran in between); or the same arguments with no other write
 * started in the scope since (the record's claim is still the latest). Otherwise the same arguments are
 * a new write: write "one", write "two", then write "one" again must run.
 */
export function isTrueDuplicate(
  record: IdempotencyRecord,
  call: { readonly toolCallId: string; readonly ownKey: boolean },
  latestClaim: string | undefined,
): boolean {
  if (record.toolCallId === call.toolCallId || call.ownKey) return true;
  return record.claim !== undefined && record.claim === latestClaim;
}
