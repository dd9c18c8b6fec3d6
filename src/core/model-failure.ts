import { DEFAULT_MODEL_RETRY_MAX_DELAY_MS } from './defaults.js';

/**
 * What a failed model call's error says of the failure (see `modelErrorTraits`), without its content:
 * numbers, a network error code, and the provider's name for the error, redacted.
 */
export interface ModelErrorTraits {
  /**
   * Whether the loop retries it: an AI SDK error's own `isRetryable` when it has one; otherwise a status of
   * 408, 409, 429 or 5xx, a network failure (`ECONNRESET`, `ECONNREFUSED`, `ETIMEDOUT`, ...), an attempt
   * that timed out (`ModelTimeoutError`), a `TransientToolError`.
   */
  readonly retryable: boolean;
  /** The HTTP status the provider answered with, when the error carries one (`statusCode` or `status`). */
  readonly status?: number;
  /**
   * The provider's name for the error, from its body: `error.code` when it is a string (OpenAI's
   * `rate_limit_exceeded`), else `error.type` (Anthropic's `rate_limit_error`, OpenAI's `server_error`),
   * else `error.status` (Gemini's `RESOURCE_EXHAUSTED`). Redacted and cut to 100 characters.
   */
  readonly providerError?: string;
  /** The code of the network failure beneath the error (`ECONNREFUSED`, `UND_ERR_SOCKET`). */
  readonly networkError?: string;
  /** The attempt timed out after this many milliseconds (`modelTimeoutMs`). */
  readonly timeoutMs?: number;
  /** The wait the provider asked for (`retry-after-ms`, `Retry-After` in seconds or as a date), in ms. */
  readonly retryAfterMs?: number;
}

/** Why the loop made no further attempt at a failed model call. */
export type ModelGiveUp =
  /** The failure is not transient (a 400, a refused key, an unusable answer). */
  | 'not-retryable'
  /** Every retry (`modelRetries`) was spent. */
  | 'retries-exhausted'
  /** The provider asked to wait longer than the loop waits (`DEFAULT_MODEL_RETRY_MAX_DELAY_MS`). */
  | 'wait-too-long'
  /** The wait before the next attempt would have passed the run's time budget. */
  | 'time-budget'
  /** Part of the answer had already been reported as deltas: another attempt would report it twice. */
  | 'answer-streamed';

/** What a `MODEL_ERROR` stop's evidence says of the model call that failed (`evidence.model`). */
export interface ModelFailure extends ModelErrorTraits {
  /** Attempts made at the call (1 when it was not retried). */
  readonly attempts: number;
  /** Why there was no further attempt. */
  readonly gaveUp: ModelGiveUp;
}

/**
 * One line on what failed, for a person (`the model provider answered 429 rate_limit_exceeded after 3
 * attempts`), or undefined when the failure says nothing more than that the call failed. Built only from
 * the redacted fields.
 */
export function describeModelFailure(failure: ModelFailure): string | undefined {
  const what = whatFailed(failure);
  if (what === undefined) return undefined;
  const attempts = failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
  return `${what}${attempts}${whyNoRetry(failure)}`;
}

function whatFailed(failure: ModelFailure): string | undefined {
  const { status, providerError, networkError, timeoutMs } = failure;
  const named = providerError === undefined ? '' : ` ${providerError}`;
  if (timeoutMs !== undefined) return `the model did not answer within ${seconds(timeoutMs)}`;
  if (status !== undefined) return `the model provider answered ${status}${named}`;
  if (networkError !== undefined) return `the model provider could not be reached (${networkError})`;
  if (providerError !== undefined) return `the model provider failed (${providerError})`;
  return undefined;
}

function whyNoRetry(failure: ModelFailure): string {
  switch (failure.gaveUp) {
    case 'wait-too-long':
      return `; it asked to wait ${seconds(failure.retryAfterMs ?? 0)} before another try, longer than the ${seconds(DEFAULT_MODEL_RETRY_MAX_DELAY_MS)} the loop waits`;
    case 'time-budget':
      return '; waiting to try again would have passed the time budget';
    case 'answer-streamed':
      return '; part of the answer had already streamed, so it was not tried again';
    case 'not-retryable':
    case 'retries-exhausted':
      return '';
    default: {
      const unreachable: never = failure.gaveUp;
      throw new TypeError(`unknown give-up ${String(unreachable)}`);
    }
  }
}

function seconds(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const value = ms / 1000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}
