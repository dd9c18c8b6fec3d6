import { withTimeout } from '../chain/with-timeout.js';
import { ModelTimeoutError } from '../core/errors/model-timeout-error.js';
import type { ModelRequest, ModelResponse } from '../core/model.js';
import type { ModelErrorTraits, ModelFailure, ModelGiveUp } from '../core/model-failure.js';
import { errorType } from '../core/tool-event.js';
import { raceAbort } from '../util/race-abort.js';
import { elapsedOf, type LoopContext } from './loop-context.js';
import { modelErrorTraits } from './model-error-traits.js';
import { modelRetryDelay } from './model-retry-delay.js';

/** What the attempts at one model call came to. */
export type Attempted =
  | { readonly type: 'answer'; readonly response: ModelResponse; readonly attempts: number }
  | {
      readonly type: 'failed';
      readonly error: unknown;
      readonly attempts: number;
      /** Undefined when the run, or the request's own signal, aborted: no failure of the model's. */
      readonly failure?: ModelFailure;
    };

/**
 * One attempt at the model call: its answer to `request` (whose signal is the attempt's). `reported` is
 * called when a delta of the answer has been reported (a streamed answer): that attempt is not retried.
 */
export type ModelAttempt = (request: ModelRequest, reported: () => void) => Promise<ModelResponse>;

/**
 * The model call with the loop's retries (`modelRetries`) and the timeout of each attempt
 * (`modelTimeoutMs`, which aborts the attempt's request through its signal). A failure is retried when its
 * error says it is transient (`modelErrorTraits`), after `modelRetryDelay`, unless the run aborted, the
 * provider asked for too long a wait, the wait would pass the time budget, or part of the answer was
 * already reported. Each retry is a `model-call-retry` event. Model adapters do not retry themselves
 * (`fromAiSdkModel` calls `doGenerate`, not `generateText`), so a call is retried here only.
 */
export async function retryModelCall(
  run: LoopContext,
  round: number,
  request: ModelRequest,
  attempt: ModelAttempt,
): Promise<Attempted> {
  const own = ownSignal(run, request);
  for (let attempts = 1; ; attempts++) {
    let reported = false;
    try {
      const response = await attemptOnce(run, request, own, (forwarded) =>
        attempt(forwarded, () => {
          reported = true;
        }),
      );
      return { type: 'answer', response, attempts };
    } catch (error) {
      if (run.budget.signal.aborted || own?.aborted === true) return { type: 'failed', error, attempts };
      const traits = modelErrorTraits(error);
      const stop = (gaveUp: ModelGiveUp): Attempted => ({
        type: 'failed',
        error,
        attempts,
        failure: { ...traits, attempts, gaveUp },
      });
      if (!traits.retryable) return stop('not-retryable');
      if (reported) return stop('answer-streamed');
      if (attempts > run.config.modelRetries) return stop('retries-exhausted');
      const delay = modelRetryDelay(attempts, { retryAfterMs: traits.retryAfterMs, random: Math.random });
      if ('tooLong' in delay) return stop('wait-too-long');
      if (elapsedOf(run) + delay.delayMs >= run.config.stops.timeBudgetMs) return stop('time-budget');
      reportRetry(run, { round, attempt: attempts + 1, delayMs: delay.delayMs, error, traits });
      try {
        await wait(run, own, delay.delayMs);
      } catch (reason) {
        return { type: 'failed', error: reason, attempts };
      }
    }
  }
}

/**
 * One attempt, bounded by the timeout and the run's signal (a model that ignores its signal still ends
 * then; a late answer is dropped). The model gets a signal of the attempt's own, aborted at the timeout,
 * by the run's signal, and by a signal a `wrapModelCall` forwarded instead of the run's. Made eagerly:
 * a request whose `signal` was a getter (made on first read) cost a third more per round, not less, because
 * the GC then promoted three times as many bytes per scavenge (measured with --trace-gc-nvp).
 */
function attemptOnce(
  run: LoopContext,
  request: ModelRequest,
  own: AbortSignal | undefined,
  start: (forwarded: ModelRequest) => Promise<ModelResponse>,
): Promise<ModelResponse> {
  const controller = new AbortController();
  const onOwnAbort = () => controller.abort(own?.reason);
  if (own?.aborted === true) onOwnAbort();
  else own?.addEventListener('abort', onOwnAbort, { once: true });
  const timeoutMs = run.config.modelTimeoutMs;
  return withTimeout(() => start({ ...request, signal: controller.signal }), {
    timeoutMs,
    timeoutError: () => new ModelTimeoutError({ timeoutMs }),
    signal: run.budget.handed,
    abort: (reason) => controller.abort(reason),
  }).finally(() => own?.removeEventListener('abort', onOwnAbort));
}

/** The wait before a retry; the run's abort (or the forwarded signal's) ends it at once. */
async function wait(run: LoopContext, own: AbortSignal | undefined, ms: number): Promise<void> {
  const { signal } = run.budget;
  const { sleep } = run.config;
  let waiting = Promise.resolve().then(() => sleep(ms, signal));
  waiting = raceAbort(waiting, signal);
  if (own !== undefined) waiting = raceAbort(waiting, own);
  await waiting;
}

/** A signal a `wrapModelCall` forwarded in place of the run's (undefined when it is the run's, or not a signal). */
function ownSignal(run: LoopContext, request: ModelRequest): AbortSignal | undefined {
  try {
    const signal: unknown = request.signal;
    if (signal === run.budget.signal) return undefined;
    return signal instanceof AbortSignal ? signal : undefined;
  } catch {
    return undefined;
  }
}

function reportRetry(
  run: LoopContext,
  retry: {
    readonly round: number;
    readonly attempt: number;
    readonly delayMs: number;
    readonly error: unknown;
    readonly traits: ModelErrorTraits;
  },
): void {
  if (run.emit === undefined) return;
  const { round, attempt, delayMs, error, traits } = retry;
  const { retryable: _retryable, ...shown } = traits;
  run.emit({
    type: 'model-call-retry',
    round,
    attempt,
    delayMs,
    errorType: errorType(error),
    ...shown,
    ...(run.includeContent ? { error } : {}),
  });
}
