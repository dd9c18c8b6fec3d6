import { undoLate } from '../chain/undo-late.js';
import { withTimeout } from '../chain/with-timeout.js';

/**
 * Waits for a caller's callback (a store's load or save, a handoff), but no longer than `timeoutMs`, and
 * no longer than `signal` allows: rejects with `BoundedCallTimeout` at the timeout, with the signal's
 * reason on an abort, with what `start` threw. A late settlement is dropped; the timer is always cleared.
 */
export function boundedCall<T>(
  start: () => PromiseLike<T> | T,
  options: {
    readonly timeoutMs: number;
    readonly signal?: AbortSignal | undefined;
    /** Takes a value that arrives after the wait gave up, to give back what it took (see `undoLate`). */
    readonly undo?: ((value: T) => void) | undefined;
  },
): Promise<T> {
  const late = undoLate(options.undo);
  return withTimeout(() => late.watch(start()), {
    timeoutMs: options.timeoutMs,
    timeoutError: () => new BoundedCallTimeout(options.timeoutMs),
    signal: options.signal,
    abort: late.giveUp,
  });
}

/**
 * A caller's callback (a store call, a handoff) did not settle in time: a failed callback, so it carries
 * that code (`CALLBACK_FAILED`, the code of the `CallbackError` it is the cause of in a run); named
 * `TimeoutError`, as the platform's timeouts are.
 */
export class BoundedCallTimeout extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'CALLBACK_FAILED';
  constructor(readonly timeoutMs: number) {
    super(`did not settle within ${timeoutMs} ms`);
  }
}
