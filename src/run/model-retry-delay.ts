import { DEFAULT_MODEL_RETRY_BASE_DELAY_MS, DEFAULT_MODEL_RETRY_MAX_DELAY_MS } from '../core/defaults.js';

/**
 * The wait before model retry number `retry` (1 for the first): what the provider asked for
 * (`retryAfterMs`) as it asked, or else the AI SDK's backoff (2 s, doubled each retry) with equal jitter
 * (half of it fixed, half random: never near zero, never above the AI SDK's figure), at most
 * `DEFAULT_MODEL_RETRY_MAX_DELAY_MS`. A provider that asks for longer than that gets `tooLong`: the loop
 * does not wait minutes on a quota.
 */
export function modelRetryDelay(
  retry: number,
  options: { readonly retryAfterMs?: number | undefined; readonly random: () => number },
): { readonly delayMs: number } | { readonly tooLong: true } {
  const max = DEFAULT_MODEL_RETRY_MAX_DELAY_MS;
  const asked = options.retryAfterMs;
  if (asked !== undefined) return asked > max ? { tooLong: true } : { delayMs: asked };
  const backoff = Math.min(max, DEFAULT_MODEL_RETRY_BASE_DELAY_MS * 2 ** Math.max(0, retry - 1));
  const random = Math.min(1, Math.max(0, options.random()));
  return { delayMs: Math.round(backoff / 2 + (random * backoff) / 2) };
}
