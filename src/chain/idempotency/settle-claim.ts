import type { ToolCallResult } from '../../core/tool-execution-result.js';
import { recordedResult } from './idempotency-record.js';
import { type IdempotentCall, recordStore, reportRecord } from './idempotent-call.js';
import type { Settlement } from './settlement.js';

/**
 * Writes what became of a claimed call (see `Settlement`), by compare-and-set on the claim's version: the
 * second round trip of an idempotent write; an outcome left unknown is reported (`outcome-unknown`). Never
 * rejects and never changes the result: a store that fails here loses the record, not the result (the
 * model still gets what the tool did), with an event. A claim that was taken over meanwhile (its lease
 * passed while the call ran) is left to the process holding it.
 */
export async function settleClaim(
  idempotent: IdempotentCall,
  claimed: { readonly version: number; readonly claim: string },
  settlement: Settlement,
  result: ToolCallResult | undefined,
): Promise<void> {
  const { version, claim } = claimed;
  const base = {
    v: 1,
    argumentsDigest: idempotent.key.argumentsDigest,
    toolCallId: idempotent.call.base.toolCallId,
    claim,
  } as const;
  try {
    switch (settlement) {
      case 'record':
      case 'unknown': {
        const written = await recordStore.settle(
          idempotent,
          settlement === 'record' && result !== undefined
            ? { ...base, state: 'completed', result: recordedResult(result) }
            : { ...base, state: 'unknown' },
          version,
        );
        if (written.ok !== true) reportRecord(idempotent, 'not-recorded');
        else if (settlement === 'unknown') reportRecord(idempotent, 'outcome-unknown');
        return;
      }
      case 'release':
        // False when the claim expired or was taken over: there is nothing of this call's to free.
        await recordStore.delete(idempotent, version);
        return;
      default: {
        const unreachable: never = settlement;
        throw new TypeError(`unknown settlement ${String(unreachable)}`);
      }
    }
  } catch (error) {
    reportRecord(idempotent, settlement === 'release' ? 'not-released' : 'not-recorded', error);
  }
}
