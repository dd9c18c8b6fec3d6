import { withTimeout } from '../chain/with-timeout.js';

/** How a step that may be asynchronous ended. */
export type Settled<T> =
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'timeout' };

/** The rejection of a step that did not settle in time (never a value a step could throw). */
const TIMED_OUT = Symbol('timed out');

/**
 * Runs `step` and waits at most `timeoutMs` for it, with the chain's `withTimeout`. A synchronous throw, a
 * rejection and a non-settling promise all become values; on timeout the step's signal aborts and a late
 * settlement is dropped. The timer is always cleared, so nothing is left running after a verdict.
 */
export async function settleWithin<T>(
  step: (signal: AbortSignal) => T | PromiseLike<T>,
  timeoutMs: number,
): Promise<Settled<T>> {
  const controller = new AbortController();
  try {
    const value = await withTimeout(() => step(controller.signal), {
      timeoutMs,
      timeoutError: () => TIMED_OUT,
      signal: undefined,
      abort: () => controller.abort(new Error(`did not settle within ${timeoutMs} ms`)),
    });
    return { kind: 'value', value };
  } catch (error) {
    return error === TIMED_OUT ? { kind: 'timeout' } : { kind: 'error', error };
  }
}
