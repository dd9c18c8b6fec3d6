import { ToolTimeoutError } from '../errors/tool-timeout-error.js';

export interface WithTimeoutOptions {
  readonly timeoutMs: number;
  readonly toolName: string;
  /** The caller's signal: when it aborts, the wait ends at once with its reason. */
  readonly signal: AbortSignal | undefined;
  /** How the tool's own signal learns why the wait ended early (the timeout, or the caller's abort). */
  readonly abort: (reason: unknown) => void;
}

/**
 * Runs `run` and waits for what it returns, but no longer than `timeoutMs` and no longer than the caller's
 * signal allows. Settles at the timeout even when the tool ignores its signal and never settles (a late
 * settlement is dropped). Whatever `run` does (throws, returns a thenable whose `then` throws or whose
 * `then` getter throws), the result is a rejection, and the timer, on a timer owned here (never
 * `AbortSignal.timeout`), is cleared on every path.
 */
export function withTimeout<T>(run: () => T | PromiseLike<T>, options: WithTimeoutOptions): Promise<T> {
  const { signal, abort } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      abort(signal.reason);
      reject(signal.reason);
      return;
    }
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      abort(signal?.reason);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      finish();
      const error = new ToolTimeoutError({ toolName: options.toolName, timeoutMs: options.timeoutMs });
      abort(error);
      reject(error);
    }, options.timeoutMs);
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
    }
  });
}
