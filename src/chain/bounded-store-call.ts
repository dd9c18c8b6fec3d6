import { DEFAULT_STORE_TIMEOUT_MS } from '../defaults.js';
import { StoreError } from '../errors/store-error.js';
import { withTimeout } from './with-timeout.js';

/**
 * A store call the chain makes, bounded: a store that does not answer within `DEFAULT_STORE_TIMEOUT_MS`
 * fails as unavailable (`StoreError`), like one that cannot be reached, so a hung store never hangs a call.
 * With `signal` (a call that may still be given up: a reservation, a claim), the caller's abort or the
 * run's time budget ends the wait too; a record of a result that exists is written without it.
 */
export function boundedStoreCall<T>(
  operation: string,
  run: () => Promise<T>,
  signal?: AbortSignal | undefined,
): Promise<T> {
  return withTimeout(run, {
    timeoutMs: DEFAULT_STORE_TIMEOUT_MS,
    timeoutError: () =>
      new StoreError({
        reason: 'unavailable',
        operation,
        message: `no answer within ${DEFAULT_STORE_TIMEOUT_MS} ms`,
      }),
    signal,
    abort: () => {},
  });
}
