import { CallbackError } from '../core/errors/callback-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';

/** The run a `wrapRun` middleware wraps. */
export interface WrappedRun {
  readonly runId: string;
  readonly sessionId: string | undefined;
  readonly turnId: string | undefined;
  /** True when the run continues a saved state (`runToolLoop({ from })`). */
  readonly resumed: boolean;
}

/**
 * Middleware around a whole run (a tracer's run span, a metrics recorder): `next` runs it and resolves with
 * its outcome, or rejects as the run would (`CallbackError`, carrying the outcome). Call `next` once and
 * return (or rethrow) what it gave: the run's result is always the one `next` produced. A wrapper that
 * throws something else, or never calls `next`, fails the run with `CallbackError` (callback `wrapRun`).
 */
export type RunWrapper = (run: WrappedRun, next: () => Promise<LoopOutcome>) => Promise<LoopOutcome>;

type Settled = { readonly outcome: LoopOutcome } | { readonly error: unknown };

/** Runs `drive` inside `wrap` (or plainly, without one), keeping the result `drive` produced. */
export async function withRunWrapper(
  wrap: RunWrapper | undefined,
  run: WrappedRun,
  drive: () => Promise<LoopOutcome>,
): Promise<LoopOutcome> {
  if (wrap === undefined) return drive();
  let settled: Settled | undefined;
  const next = async (): Promise<LoopOutcome> => {
    if (settled !== undefined) throw new TypeError('wrapRun called next more than once');
    try {
      const outcome = await drive();
      settled = { outcome };
      return outcome;
    } catch (error) {
      settled = { error };
      throw error;
    }
  };
  let wrapperError: { readonly error: unknown } | undefined;
  try {
    await wrap(run, next);
  } catch (error) {
    wrapperError = { error };
  }
  if (settled !== undefined && 'error' in settled) throw settled.error;
  if (settled === undefined) {
    throw new CallbackError({
      callback: 'wrapRun',
      cause: wrapperError?.error ?? new TypeError('wrapRun must call next'),
    });
  }
  if (wrapperError !== undefined) {
    throw new CallbackError({ callback: 'wrapRun', cause: wrapperError.error, outcome: settled.outcome });
  }
  return settled.outcome;
}
