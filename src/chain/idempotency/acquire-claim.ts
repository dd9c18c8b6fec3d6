import { randomUUID } from 'node:crypto';
import { DEFAULT_IDEMPOTENCY_MAX_POLL_MS, DEFAULT_IDEMPOTENCY_POLL_MS } from '../../core/defaults.js';
import type { StoreEntry, StoreSetResult } from '../../core/store.js';
import type { ToolCallResult } from '../../core/tool-execution-result.js';
import { limitedBy } from '../limits.js';
import { sleep } from '../retry-delay.js';
import { limitedResult, refusedResult, replayedResult, storeCallFailed } from './idempotency-answers.js';
import { readRecord } from './idempotency-record.js';
import { type IdempotentCall, recordStore, reportRecord } from './idempotent-call.js';
import { isTrueDuplicate, latestClaimOf } from './latest-write.js';
import { leasePassed } from './lease.js';

/** Whether this process may run the call (holding the record at `version`, as `claim`), or how it is answered. */
export type Acquired =
  | { readonly type: 'claimed'; readonly version: number; readonly claim: string }
  | { readonly type: 'answered'; readonly result: ToolCallResult };

/**
 * Claims the call's record, or answers the call from it. Each look is a claim (a write only where there is
 * no record) that, refused, hands back the record and the scope's latest write: one round trip when the
 * call is new or answered from its record. What the record says:
 * - any record with other arguments (a tool's own key reused): `IDEMPOTENCY_CONFLICT`;
 * - `completed`, of a true duplicate (see `isTrueDuplicate`): the recorded result, replayed; of a new write
 *   (another write started in the scope since): claimed over by compare-and-set (one process wins) and run;
 * - `unknown`, or `started` with its lease passed at most once: `OUTCOME_UNKNOWN`, whatever ran since (a
 *   later identical call is most likely the one whose answer never came, and it may have acted);
 * - `started` with its lease passed at least once: taken over by compare-and-set and run;
 * - `started` and within its lease: looked at again with backoff for as long as the tool's timeout, then
 *   `ALREADY_IN_PROGRESS`; a record gone meanwhile (released, expired) is claimed.
 * A store that fails, hangs or holds something else fails the call closed: not run, `TOOL_UNAVAILABLE`.
 */
export async function acquireClaim(idempotent: IdempotentCall): Promise<Acquired> {
  const { call, context, settings } = idempotent;
  const deadline = Date.now() + context.policy.timeoutFor(idempotent.tool);
  let delayMs = DEFAULT_IDEMPOTENCY_POLL_MS;
  let claimedBy = '';
  const who = { toolCallId: call.base.toolCallId, ownKey: settings.key !== undefined };
  // The claim this call was found a duplicate of when it arrived: a write started while it waits for that
  // one (of a later call: they run side by side under writeConcurrency) does not make it a new write.
  let duplicateOf: string | undefined;
  try {
    for (let round = 0; ; round++) {
      if (round > 0) {
        if (Date.now() >= deadline) return answered(refusedResult('in-progress', claimedBy, call, context));
        await sleep(Math.min(delayMs, Math.max(0, deadline - Date.now())), context.signal);
        delayMs = Math.min(delayMs * 2, DEFAULT_IDEMPOTENCY_MAX_POLL_MS);
      }
      const claim = randomUUID();
      const claimed = claimResult(idempotent, claim, await recordStore.claim(idempotent, claim, 0));
      if (claimed.type !== 'refused') return claimed;
      const seen = claimed.current;
      if (seen === undefined) continue;
      const record = readRecord(seen.value);
      claimedBy = record.toolCallId;
      if (record.argumentsDigest !== idempotent.key.argumentsDigest) {
        return answered(refusedResult('conflict', claimedBy, call, context));
      }
      if (record.claim !== undefined && isTrueDuplicate(record, who, latestClaimOf(claimed.latest))) {
        duplicateOf ??= record.claim;
      }
      let takingOver = false;
      switch (record.state) {
        case 'completed': {
          if (!isTrueDuplicate(record, who, duplicateOf)) break;
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
          takingOver = true;
          break;
        }
        default: {
          const unreachable: never = record;
          throw new TypeError(`unknown record ${String(unreachable)}`);
        }
      }
      const next = randomUUID();
      const taken = claimResult(idempotent, next, await recordStore.claim(idempotent, next, seen.version));
      if (taken.type !== 'refused') {
        if (taken.type === 'claimed' && takingOver) reportRecord(idempotent, 'taken-over');
        return taken;
      }
    }
  } catch (error) {
    return answered(storeCallFailed(error, call, context));
  }
}

function answered(result: ToolCallResult): Acquired {
  return { type: 'answered', result };
}

/** What a claim (see `recordStore.claim`) came to: claimed, answered as limited, or refused with what it found. */
function claimResult(
  idempotent: IdempotentCall,
  claim: string,
  written: StoreSetResult,
):
  | Acquired
  | {
      readonly type: 'refused';
      readonly current: StoreEntry | undefined;
      readonly latest: StoreEntry | undefined;
    } {
  if (written.ok) return { type: 'claimed', version: written.version, claim };
  const { counters, call, context } = idempotent;
  if (written.blocked !== undefined && counters !== undefined) {
    return answered(limitedResult(limitedBy(counters, written.blocked), call, context));
  }
  return { type: 'refused', current: written.current, latest: written.alsoCurrent };
}
