export interface WithTimeoutOptions {
  readonly timeoutMs: number;
  /** The rejection at the timeout (a tool's: `ToolTimeoutError`). */
  readonly timeoutError: () => unknown;
  /** The caller's signal: when it aborts, the wait ends at once with its reason. */
  readonly signal: AbortSignal | undefined;
  /** How the tool's own signal learns why the wait ended early (the timeout, or the caller's abort). */
  readonly abort: (reason: unknown) => void;
}

/**
 * Runs `run` (a tool's execute, a caller's callback) and waits for what it returns, but no longer than `timeoutMs` and no longer than the caller's
 * signal allows. Settles at the timeout even when the tool ignores its signal and never settles (a late
 * settlement is dropped). Whatever `run` does (throws, returns a thenable whose `then` throws or whose
 * `then` getter throws), the result is a rejection.
 *
 * The timer is one owned here (never `AbortSignal.timeout`, seen never to fire after a GC on Node 20.20),
 * cleared on every path. It is armed one microtask after `run` returns, unless the result has settled by
 * then: a value returned synchronously or an already settled promise settles first (its reaction was queued
 * first), so it costs no timer at all.
 */
export function withTimeout<T>(run: () => T | PromiseLike<T>, options: WithTimeoutOptions): Promise<T> {
  const { signal, abort } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      abort(signal.reason);
      reject(signal.reason);
      return;
    }
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      abort(signal?.reason);
      reject(signal?.reason);
    };
    const onTimeout = () => {
      finish();
      const error = options.timeoutError();
      abort(error);
      reject(error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // Promise.resolve reads `then` itself: a throwing getter or `then` becomes a rejection, never a throw.
      Promise.resolve(run()).then(
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
      return;
    }
    // A promise reaction, not queueMicrotask (which Node wraps in an AsyncResource): queued after the result's.
    void Promise.resolve().then(() => {
      if (!settled) timer = setTimeout(onTimeout, options.timeoutMs);
    });
  });
}
