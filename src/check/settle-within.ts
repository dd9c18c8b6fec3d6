/** How a step that may be asynchronous ended. */
export type Settled<T> =
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'timeout' };

/**
 * Runs `step` and waits at most `timeoutMs` for it. A synchronous throw, a rejection and a non-settling
 * promise all become values; on timeout the step's signal aborts and a late settlement is dropped.
 * The timer is always cleared, so nothing is left running after a verdict.
 */
export async function settleWithin<T>(
  step: (signal: AbortSignal) => T | PromiseLike<T>,
  timeoutMs: number,
): Promise<Settled<T>> {
  const controller = new AbortController();
  let pending: T | PromiseLike<T>;
  try {
    pending = step(controller.signal);
  } catch (error) {
    return { kind: 'error', error };
  }
  if (!isThenable(pending)) return { kind: 'value', value: pending };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`did not settle within ${timeoutMs} ms`));
      resolve({ kind: 'timeout' });
    }, timeoutMs);
  });
  const settled = Promise.resolve(pending).then(
    (value): Settled<T> => ({ kind: 'value', value }),
    (error: unknown): Settled<T> => ({ kind: 'error', error }),
  );
  try {
    return await Promise.race([settled, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  try {
    return (
      (typeof value === 'object' || typeof value === 'function') &&
      value !== null &&
      typeof (value as { then?: unknown }).then === 'function'
    );
  } catch {
    return false;
  }
}
