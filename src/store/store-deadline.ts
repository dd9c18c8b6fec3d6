import { DEFAULT_STORE_CLOCK_MARGIN_MS } from '../core/defaults.js';
import { StoreError } from '../core/errors/store-error.js';

/**
 * The `deadline` of a write whose caller waits `timeoutMs` from `now`: the clock margin before it gives up
 * (`DEFAULT_STORE_CLOCK_MARGIN_MS`, at most half the wait), so a command that lands after the caller gave
 * up is refused even by a store whose clock lags the caller's by up to that margin.
 */
export function storeDeadline(timeoutMs: number, now: number = Date.now()): number {
  const margin = Math.min(DEFAULT_STORE_CLOCK_MARGIN_MS, Math.floor(timeoutMs / 2));
  return Math.min(now + timeoutMs - margin, Number.MAX_SAFE_INTEGER);
}

/** The earlier of two deadlines (either may be absent). */
export function earlierDeadline(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.min(a, b);
}

export function checkDeadline(deadline: unknown): asserts deadline is number | undefined {
  if (deadline !== undefined && (!Number.isSafeInteger(deadline) || (deadline as number) < 0)) {
    throw new TypeError('deadline must be a time in whole milliseconds since the epoch');
  }
}

/** The rejection of a write that reached the store at or after its deadline: nothing was written. */
export function lateWriteError(operation: string): StoreError {
  return new StoreError({
    reason: 'unavailable',
    operation,
    message:
      'the command reached the store after its deadline (its caller had given up): nothing was written',
  });
}

/** Throws `lateWriteError` when the store's clock reads `now` at or after `deadline`. */
export function refuseLateWrite(deadline: number | undefined, now: number, operation: string): void {
  if (deadline !== undefined && now >= deadline) throw lateWriteError(operation);
}
