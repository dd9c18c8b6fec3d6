/**
 * The run's signal: one controller, aborted by the caller's signal, by the time budget (a timer we own,
 * never `AbortSignal.timeout`), or by `cancel` (a stream whose consumer left). Says which one fired.
 */
export interface BudgetSignal {
  readonly signal: AbortSignal;
  /**
   * Whether anything can abort the run: a caller's signal, a time budget, or a stream that can be left. When
   * nothing can, there is nothing to race a model call against and nothing to hand the chain.
   */
  readonly canAbort: boolean;
  /** Why the run's signal aborted; undefined while it has not. */
  cause(): 'caller' | 'time' | 'cancelled' | undefined;
  /** Aborts the run (the stream's consumer stopped reading). */
  cancel(reason: unknown): void;
  dispose(): void;
}

export function createBudgetSignal(
  caller: AbortSignal | undefined,
  timeBudgetMs: number,
  cancellable = false,
): BudgetSignal {
  const controller = new AbortController();
  let cause: 'caller' | 'time' | 'cancelled' | undefined;
  const abort = (why: 'caller' | 'time' | 'cancelled', reason: unknown) => {
    if (controller.signal.aborted) return;
    cause = why;
    controller.abort(reason);
  };
  const onCaller = () => abort('caller', caller?.reason);
  const timer = Number.isFinite(timeBudgetMs)
    ? setTimeout(
        () =>
          abort('time', new DOMException(`the time budget of ${timeBudgetMs} ms ran out`, 'TimeoutError')),
        Math.max(0, timeBudgetMs),
      )
    : undefined;
  if (caller?.aborted) onCaller();
  else caller?.addEventListener('abort', onCaller, { once: true });
  return {
    signal: controller.signal,
    canAbort: caller !== undefined || timer !== undefined || cancellable,
    cause: () => cause,
    cancel: (reason) => abort('cancelled', reason),
    dispose: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCaller);
    },
  };
}

/** Settles with the promise, or rejects with the signal's reason as soon as it aborts (even if the promise never settles). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
