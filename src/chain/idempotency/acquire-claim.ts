import { DEFAULT_IDEMPOTENCY_MAX_POLL_MS, DEFAULT_IDEMPOTENCY_POLL_MS } from '../../defaults.js';
import type { StoreEntry } from '../../store/store.js';
import { limitedBy } from '../reserve-call.js';
import { sleep } from '../retry-delay.js';
import type { ToolCallResult } from '../tool-execution-result.js';
import { toolFailure } from '../tool-failure.js';
import { limitedResult, refusedResult, replayedResult, unavailableResult } from './idempotency-answers.js';
import { readRecord } from './idempotency-record.js';
import { type IdempotentCall, recordStore, reportRecord, startedRecord } from './idempotent-call.js';
import { leasePassed } from './lease.js';

/** Whether this process may run the call (holding the record at `version`), or how the call is answered. */
export type Acquired =
  | { readonly type: 'claimed'; readonly version: number }
  | { readonly type: 'answered'; readonly result: ToolCallResult };

/**
 * Claims the call's record, or answers the call from it. One round trip when the call is new (a write only
 * where there is no record) or already done (the failed write hands back the record):
 * - `completed` with the same arguments: the recorded result, replayed;
 * - any record with other arguments (a tool's own key reused): `IDEMPOTENCY_CONFLICT`;
 * - `unknown`, or `started` with its lease passed at most once: `OUTCOME_UNKNOWN`;
 * - `started` with its lease passed at least once: taken over by compare-and-set (one process wins) and run;
 * - `started` and within its lease: looked at again with backoff for as long as the tool's timeout, then
 *   `ALREADY_IN_PROGRESS`; a record gone meanwhile (released, expired) is claimed again.
 * A store that fails, hangs or holds something else fails the call closed: not run, `TOOL_UNAVAILABLE`.
 */
export async function acquireClaim(idempotent: IdempotentCall): Promise<Acquired> {
  const { call, context, settings } = idempotent;
  const deadline = Date.now() + context.policy.timeoutFor(idempotent.tool);
  let delayMs = DEFAULT_IDEMPOTENCY_POLL_MS;
  let claimedBy = '';
  let seen: StoreEntry | undefined;
  try {
    for (let round = 0; ; round++) {
      if (round > 0) {
        if (Date.now() >= deadline) return answered(refusedResult('in-progress', claimedBy, call, context));
        await sleep(Math.min(delayMs, Math.max(0, deadline - Date.now())), context.signal);
        delayMs = Math.min(delayMs * 2, DEFAULT_IDEMPOTENCY_MAX_POLL_MS);
        seen = await recordStore.get(idempotent);
      }
      if (seen === undefined) {
        // The first claim counts the call against its limits too (`counters`): one round trip for both.
        const claimed = await recordStore.set(idempotent, startedRecord(idempotent), 0, idempotent.counters);
        if (claimed.ok) return { type: 'claimed', version: claimed.version };
        if (claimed.blocked !== undefined && idempotent.counters !== undefined) {
          return answered(limitedResult(limitedBy(idempotent.counters, claimed.blocked), call, context));
        }
        seen = claimed.current;
        if (seen === undefined) continue;
      }
      const record = readRecord(seen.value);
      claimedBy = record.toolCallId;
      if (record.argumentsDigest !== idempotent.key.argumentsDigest) {
        return answered(refusedResult('conflict', claimedBy, call, context));
      }
      switch (record.state) {
        case 'completed': {
          const maxChars = context.policy.maxResultCharsFor(idempotent.tool);
          return answered(replayedResult(record.result, claimedBy, call, context, maxChars));
        }
        case 'unknown':
          return answered(refusedResult('unknown-outcome', claimedBy, call, context));
        case 'started': {
          if (!leasePassed(record)) continue;
          if (settings.mode === 'at-most-once') {
            return answered(refusedResult('unknown-outcome', claimedBy, call, context));
          }
          const taken = await recordStore.set(idempotent, startedRecord(idempotent), seen.version);
          if (taken.ok) {
            reportRecord(idempotent, 'taken-over');
            return { type: 'claimed', version: taken.version };
          }
          continue;
        }
        default: {
          const unreachable: never = record;
          throw new TypeError(`unknown record ${String(unreachable)}`);
        }
      }
    }
  } catch (error) {
    if (context.signal?.aborted === true) {
      return answered(
        toolFailure({
          base: call.base,
          error: context.signal.reason,
          errorClass: 'aborted',
          attempts: 0,
          durationMs: context.now() - call.started,
        }),
      );
    }
    context.storeFailed(call.base.toolName, error);
    reportRecord(idempotent, 'store-failed', error);
    return answered(unavailableResult(error, call, context));
  }
}

function answered(result: ToolCallResult): Acquired {
  return { type: 'answered', result };
}
