import type { ToolCallResult } from '../../core/tool-execution-result.js';
import { mayChangeWorld } from '../../tools/tool-effect.js';
import type { ReadyCall } from '../prepare.js';
import type { RunContext, RunningCall } from '../run-context.js';
import { toolFailure } from '../tool-failure.js';
import { acquireClaim } from './acquire-claim.js';
import { endWindow } from './end-window.js';
import { type IdempotencyKey, idempotencyKeyOf } from './idempotency-key.js';
import type { IdempotentCall } from './idempotent-call.js';
import { settleClaim } from './settle-claim.js';
import { cutOff, settlementOf } from './settlement.js';

/**
 * Runs a write under its idempotency record (see "Idempotent writes" in docs/approvals-and-state.md); any other call that
 * may change something first ends the window of the records of its scope (see `endWindow`), and a read
 * runs as it is. The call is claimed in the store before the tool runs and its outcome written after (two
 * round trips); a true duplicate is answered from the record and the tool does not run. Never rejects
 * unless `run` does (a defect of the chain): then the claim is settled as cut off and the rejection passes.
 */
export async function runIdempotent(
  ready: ReadyCall,
  call: RunningCall,
  context: RunContext,
  run: () => Promise<ToolCallResult>,
): Promise<ToolCallResult> {
  const settings = ready.tool.idempotency;
  // Aborted already: the chain answers `ABORTED` without running the tool; there is nothing to claim.
  if (context.signal?.aborted === true) return run();
  if (settings === undefined) {
    if (!mayChangeWorld(ready.tool.effect) || !context.idempotency.keyedByArguments()) return run();
    return (await endWindow(call, context)) ?? run();
  }
  let key: IdempotencyKey;
  try {
    key = idempotencyKeyOf(
      ready.tool,
      settings,
      { canonical: ready.identity.canonical, args: ready.args, data: context.data },
      context.idempotency,
    );
  } catch (error) {
    // The tool's key function threw: a defect of the tool, and nothing says which action this is.
    const durationMs = context.now() - call.started;
    return toolFailure({ base: call.base, error, errorClass: 'fatal', attempts: 0, durationMs });
  }
  const idempotent: IdempotentCall = {
    tool: ready.tool,
    settings,
    key,
    call,
    context,
    counters: ready.deferredCounters,
  };
  const acquired = await acquireClaim(idempotent);
  if (acquired.type === 'answered') return acquired.result;
  let result: ToolCallResult;
  try {
    result = await run();
  } catch (error) {
    await settleClaim(idempotent, acquired, cutOff(settings.mode), undefined);
    throw error;
  }
  await settleClaim(idempotent, acquired, settlementOf(result, settings.mode), result);
  return result;
}
