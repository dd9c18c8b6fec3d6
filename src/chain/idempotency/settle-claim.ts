import type { ToolCallResult } from '../tool-execution-result.js';
import { recordedResult } from './idempotency-record.js';
import { type IdempotentCall, recordStore, reportRecord } from './idempotent-call.js';
import type { Settlement } from './settlement.js';

/**
 * Writes what became of a claimed call (see `Settlement`), by compare-and-set on the claim's version: the
 * second round trip of an idempotent write. Never rejects and never changes the result: a store that fails
 * here loses the record, not the result (the model still gets what the tool did), with an event. A claim
 * that was taken over meanwhile (its lease passed while the call ran) is left to the process holding it.
 */
export async function settleClaim(
  idempotent: IdempotentCall,
  version: number,
  settlement: Settlement,
  result: ToolCallResult | undefined,
): Promise<void> {
  const { argumentsDigest } = idempotent.key;
  const toolCallId = idempotent.call.base.toolCallId;
  try {
    switch (settlement) {
      case 'record':
      case 'unknown': {
        const written = await recordStore.set(
          idempotent,
          settlement === 'record' && result !== undefined
            ? { v: 1, state: 'completed', argumentsDigest, toolCallId, result: recordedResult(result) }
            : { v: 1, state: 'unknown', argumentsDigest, toolCallId },
          version,
        );
        if (written.ok !== true) reportRecord(idempotent, 'not-recorded');
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
