import { DEFAULT_STORE_TIMEOUT_MS } from '../defaults.js';
import { StoreError } from '../errors/store-error.js';
import { withTimeout } from './with-timeout.js';

/**
 * A store call the chain makes, bounded: a store that does not answer within `DEFAULT_STORE_TIMEOUT_MS`
 * fails as unavailable (`StoreError`), like one that cannot be reached, so a hung store never hangs a call.
 */
export function boundedStoreCall<T>(operation: string, run: () => Promise<T>): Promise<T> {
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
