/** The request's signal: the caller's, plus the wall-clock budget. Says which of them fired. */
export interface BudgetSignal {
  readonly signal: AbortSignal;
  /**
   * False when there is neither a caller's signal nor a time budget: nothing can abort, nothing to race,
   * and nobody needs to be handed the signal but the model.
   */
  readonly canAbort: boolean;
  /** True once the time budget ran out (and the caller had not aborted first). */
  timedOut(): boolean;
  dispose(): void;
}

export function createBudgetSignal(caller: AbortSignal | undefined, timeBudgetMs: number): BudgetSignal {
  if (!Number.isFinite(timeBudgetMs)) {
    // Without a time budget only the caller can abort: its own signal is the request's, no controller and
    // no AbortSignal.any (each costs microseconds). Without a caller either, the never-aborted signal the
    // model is handed is made when first read.
    if (caller !== undefined) return { signal: caller, canAbort: true, timedOut: never, dispose: nothing };
    let controller: AbortController | undefined;
    return {
      get signal() {
        controller ??= new AbortController();
        return controller.signal;
      },
      canAbort: false,
      timedOut: never,
      dispose: nothing,
    };
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = caller?.aborted !== true;
    controller.abort(new DOMException(`the time budget of ${timeBudgetMs} ms ran out`, 'TimeoutError'));
  }, timeBudgetMs);
  const signal = caller === undefined ? controller.signal : AbortSignal.any([controller.signal, caller]);
  return {
    signal,
    canAbort: true,
    timedOut: () => timedOut,
    dispose: () => clearTimeout(timer),
  };
}

const never = (): boolean => false;
const nothing = (): void => {};

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
