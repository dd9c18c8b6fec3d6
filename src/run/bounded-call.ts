/**
 * Waits for a caller's promise (a store's load or save), but no longer than `timeoutMs`, and no longer
 * than `signal` allows. Rejects with `BoundedCallTimeout` at the timeout, with the signal's reason on an
 * abort; the late settlement of the promise is observed and dropped. The timer is ours and always cleared.
 */
export function boundedCall<T>(
  start: () => PromiseLike<T> | T,
  options: { readonly timeoutMs: number; readonly signal?: AbortSignal | undefined },
): Promise<T> {
  const { signal, timeoutMs } = options;
  return new Promise<T>((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      finish();
      reject(new BoundedCallTimeout(timeoutMs));
    }, timeoutMs);
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      Promise.resolve(start()).then(
        (value) => {
          finish();
          resolve(value);
        },
        (error: unknown) => {
          finish();
          reject(error);
        },
      );
    } catch (error) {
      finish();
      reject(error);
    }
  });
}

export class BoundedCallTimeout extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`did not settle within ${timeoutMs} ms`);
  }
}
