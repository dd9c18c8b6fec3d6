/** Exponential backoff with full jitter: a random delay in [0, min(max, base * 2^(retry-1))]. */
export function retryDelay(
  retry: number,
  options: {
    baseDelayMs: number;
    maxDelayMs: number;
    random: () => number;
    retryAfterMs?: number | undefined;
  },
): number {
  if (options.retryAfterMs !== undefined && options.retryAfterMs >= 0) {
    return Math.min(options.retryAfterMs, options.maxDelayMs);
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(options.random() * ceiling);
}

/** Waits, unless the signal aborts first (then rejects with the signal's reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 && signal?.aborted !== true) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
