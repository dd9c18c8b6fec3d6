import { randomUUID } from 'node:crypto';
import { DEFAULT_IDEMPOTENCY_TTL_MS } from '../../core/defaults.js';
import type { ToolCallFailure } from '../../core/tool-execution-result.js';
import { boundedStoreCall } from '../bounded-store-call.js';
import type { RunContext, RunningCall } from '../run-context.js';
import { storeCallFailed } from './idempotency-answers.js';
import { latestWrite } from './latest-write.js';

/**
 * Before a call that may change something but keeps no record runs (a tool of unknown effect, an
 * idempotent write, a write with `idempotency: false`), it becomes the scope's latest write: no record of
 * the same arguments from before it answers a later call (write_file, then an edit by another tool, then
 * the same write_file runs again). One store call, only in a runtime with a tool keyed by its arguments;
 * a store that fails refuses the call, as a write's claim does (`TOOL_UNAVAILABLE`).
 */
export async function endWindow(
  call: RunningCall,
  context: RunContext,
): Promise<ToolCallFailure | undefined> {
  const { store, key } = context.idempotency.latest();
  try {
    await boundedStoreCall(
      'set',
      () => store.set(key, latestWrite(randomUUID()), { ttlMs: DEFAULT_IDEMPOTENCY_TTL_MS }),
      context.signal,
    );
    return undefined;
  } catch (error) {
    return storeCallFailed(error, call, context);
  }
}
