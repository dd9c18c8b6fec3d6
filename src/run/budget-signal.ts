/**
 * The run's signal: one controller, aborted by the caller's signal, by the time budget (a timer we own,
 * never `AbortSignal.timeout`), or by `cancel` (a stream whose consumer left). Says which one fired.
 */
export interface BudgetSignal {
  readonly signal: AbortSignal;
  /**
   * The signal to hand to the model and the tools: the run's, or undefined when nothing can abort the run
   * (no caller's signal, no time budget, not a stream), so no call registers a listener on it.
   */
  readonly handed: AbortSignal | undefined;
  /** Why the run's signal aborted; undefined while it has not. */
  cause(): 'caller' | 'time' | 'cancelled' | undefined;
  /** Aborts the run (the stream's consumer stopped reading). */
  cancel(reason: unknown): void;
  dispose(): void;
}

/**
 * The run's signal over the caller's and a time budget (a non-finite budget arms no timer); `cancellable`:
 * a stream's consumer can leave.
 */
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
    handed: caller !== undefined || timer !== undefined || cancellable ? controller.signal : undefined,
    cause: () => cause,
    cancel: (reason) => abort('cancelled', reason),
    dispose: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCaller);
    },
  };
}
