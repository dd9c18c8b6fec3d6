import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_RETRY_MAX_DELAY_MS } from '../core/defaults.js';
import { modelRetryDelay } from './model-retry-delay.js';

const at = (value: number) => () => value;

describe('modelRetryDelay', () => {
  it('backs off as the AI SDK does (2 s, 4 s, 8 s), half of it random', () => {
    expect([1, 2, 3].map((retry) => modelRetryDelay(retry, { random: at(0) }))).toEqual([
      { delayMs: 1000 },
      { delayMs: 2000 },
      { delayMs: 4000 },
    ]);
    expect([1, 2, 3].map((retry) => modelRetryDelay(retry, { random: at(1) }))).toEqual([
      { delayMs: 2000 },
      { delayMs: 4000 },
      { delayMs: 8000 },
    ]);
    expect(modelRetryDelay(1, { random: at(0.5) })).toEqual({ delayMs: 1500 });
  });

  it('never waits longer than the cap, however many retries', () => {
    expect(modelRetryDelay(40, { random: at(1) })).toEqual({ delayMs: DEFAULT_MODEL_RETRY_MAX_DELAY_MS });
  });

  it('waits what the provider asked for, as asked, up to the cap; beyond it, not at all', () => {
    expect(modelRetryDelay(1, { retryAfterMs: 1000, random: at(1) })).toEqual({ delayMs: 1000 });
    expect(modelRetryDelay(2, { retryAfterMs: 0, random: at(1) })).toEqual({ delayMs: 0 });
    expect(modelRetryDelay(1, { retryAfterMs: DEFAULT_MODEL_RETRY_MAX_DELAY_MS, random: at(1) })).toEqual({
      delayMs: DEFAULT_MODEL_RETRY_MAX_DELAY_MS,
    });
    expect(modelRetryDelay(1, { retryAfterMs: DEFAULT_MODEL_RETRY_MAX_DELAY_MS + 1, random: at(0) })).toEqual(
      {
        tooLong: true,
      },
    );
  });
});
