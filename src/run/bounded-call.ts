import { withTimeout } from '../chain/with-timeout.js';

/**
 * Waits for a caller's callback (a store's load or save, a handoff), but no longer than `timeoutMs`, and
 * no longer than `signal` allows: rejects with `BoundedCallTimeout` at the timeout, with the signal's
 * reason on an abort, with what `start` threw. A late settlement is dropped; the timer is always cleared.
 */
export function boundedCall<T>(
  start: () => PromiseLike<T> | T,
  options: { readonly timeoutMs: number; readonly signal?: AbortSignal | undefined },
): Promise<T> {
  return withTimeout(start, {
    timeoutMs: options.timeoutMs,
    timeoutError: () => new BoundedCallTimeout(options.timeoutMs),
    signal: options.signal,
    abort: () => {},
  });
}

export class BoundedCallTimeout extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`did not settle within ${timeoutMs} ms`);
  }
}
