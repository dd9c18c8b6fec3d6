import { ToolTimeoutError } from '../errors/tool-timeout-error.js';

/**
 * Runs `task` with a signal that aborts after `timeoutMs` or when `parent` aborts. Settles at the timeout
 * even when the task ignores its signal and never settles; a late settlement is observed and dropped.
 * The signal is made on first use, and the timer only starts once the task returns a promise: a
 * synchronous tool cannot be interrupted by a timer anyway, so it costs neither.
 */
export function runWithTimeout<T>(
  task: (signal: () => AbortSignal) => T | PromiseLike<T>,
  options: { timeoutMs: number; toolName: string; parent?: AbortSignal | undefined },
): T | Promise<T> {
  const { parent } = options;
  if (parent?.aborted) return Promise.reject(parent.reason);
  let controller: AbortController | undefined;
  let combined: AbortSignal | undefined;
  let abortReason: unknown;
  let aborted = false;
  const signal = (): AbortSignal => {
    if (combined === undefined) {
      controller = new AbortController();
      if (aborted) controller.abort(abortReason);
      combined = parent === undefined ? controller.signal : AbortSignal.any([controller.signal, parent]);
    }
    return combined;
  };
  const abort = (reason: unknown) => {
    aborted = true;
    abortReason = reason;
    controller?.abort(reason);
  };

  // A synchronous throw propagates as is; a synchronous value is returned as is.
  const pending = task(signal);
  if (!isThenable(pending)) return pending;
  const running = pending;
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
    running.then(
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

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
