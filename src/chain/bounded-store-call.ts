import { DEFAULT_STORE_TIMEOUT_MS } from '../core/defaults.js';
import { StoreError } from '../core/errors/store-error.js';
import { storeDeadline } from '../store/store-deadline.js';
import { undoLate } from './undo-late.js';
import { withTimeout } from './with-timeout.js';

/**
 * A store call the chain makes, bounded: a store that does not answer within `DEFAULT_STORE_TIMEOUT_MS`
 * fails as unavailable (`StoreError`), like one that cannot be reached, so a hung store never hangs a call.
 * With `signal` (a call that may still be given up: a reservation, a claim), the caller's abort or the
 * run's time budget ends the wait too; a record of a result that exists is written without it. `run` is
 * handed the deadline to give a claim or a reservation (see `StoreSetOptions.deadline`): a command that
 * reaches the store after this wait gave up then does nothing. One that lands before it, after the wait
 * ended early (an abort), is handed to `undo`, which gives back what it took.
 */
export function boundedStoreCall<T>(
  operation: string,
  run: (deadline: number) => Promise<T>,
  signal?: AbortSignal | undefined,
  undo?: (value: T) => void,
): Promise<T> {
  const deadline = storeDeadline(DEFAULT_STORE_TIMEOUT_MS);
  const late = undoLate(undo);
  return withTimeout(() => late.watch(run(deadline)), {
    timeoutMs: DEFAULT_STORE_TIMEOUT_MS,
    timeoutError: () =>
      new StoreError({
        reason: 'unavailable',
        operation,
        message: `no answer within ${DEFAULT_STORE_TIMEOUT_MS} ms`,
      }),
    signal,
    abort: late.giveUp,
  });
}
