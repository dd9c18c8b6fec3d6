import { ToolTimeoutError } from '../errors/tool-timeout-error.js';

/**
 * Waits for a tool's pending result, but no longer than `timeoutMs`, and no longer than the caller's
 * signal allows. Settles at the timeout even when the tool ignores its signal and never settles (a late
 * settlement is observed and dropped); `abort` is how the tool's own signal learns why.
 */
export function settleWithTimeout<T>(
  pending: PromiseLike<T>,
  options: {
    readonly timeoutMs: number;
    readonly toolName: string;
    readonly parent: AbortSignal | undefined;
    readonly abort: (reason: unknown) => void;
  },
): Promise<T> {
  const { parent, abort } = options;
  return new Promise<T>((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    };
    const onParentAbort = () => {
      finish();
      abort(parent?.reason);
      reject(parent?.reason);
    };
    const timer = setTimeout(() => {
      finish();
      const error = new ToolTimeoutError({ toolName: options.toolName, timeoutMs: options.timeoutMs });
      abort(error);
      reject(error);
    }, options.timeoutMs);
    if (parent?.aborted) onParentAbort();
    else parent?.addEventListener('abort', onParentAbort, { once: true });
    pending.then(
      (value) => {
        finish();
        resolve(value);
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
  });
}

export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
