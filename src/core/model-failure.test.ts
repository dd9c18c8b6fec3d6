import { describe, expect, it } from 'vitest';
import { describeModelFailure } from './model-failure.js';

describe('describeModelFailure', () => {
  it('says the status and the provider error, and the attempts when there were several', () => {
    const base = { retryable: true, attempts: 3, gaveUp: 'retries-exhausted' } as const;
    expect(describeModelFailure({ ...base, status: 429, providerError: 'rate_limit_exceeded' })).toBe(
      'the model provider answered 429 rate_limit_exceeded after 3 attempts',
    );
    expect(describeModelFailure({ ...base, status: 500, providerError: 'server_error' })).toBe(
      'the model provider answered 500 server_error after 3 attempts',
    );
    expect(describeModelFailure({ ...base, attempts: 1, status: 400, gaveUp: 'not-retryable' })).toBe(
      'the model provider answered 400',
    );
    expect(describeModelFailure({ ...base, networkError: 'ECONNRESET' })).toBe(
      'the model provider could not be reached (ECONNRESET) after 3 attempts',
    );
    expect(describeModelFailure({ ...base, timeoutMs: 600_000 })).toBe(
      'the model did not answer within 600 s after 3 attempts',
    );
  });

  it('says why it stopped trying, when not for want of retries', () => {
    const base = { retryable: true, attempts: 1, status: 429 } as const;
    expect(describeModelFailure({ ...base, gaveUp: 'wait-too-long', retryAfterMs: 90_000 })).toBe(
      'the model provider answered 429; it asked to wait 90 s before another try, longer than the 60 s the loop waits',
    );
    expect(describeModelFailure({ ...base, gaveUp: 'time-budget' })).toBe(
      'the model provider answered 429; waiting to try again would have passed the time budget',
    );
    expect(describeModelFailure({ ...base, gaveUp: 'answer-streamed' })).toContain('already streamed');
  });

  it('says nothing when the failure tells nothing more than that the call failed', () => {
    expect(describeModelFailure({ retryable: false, attempts: 1, gaveUp: 'not-retryable' })).toBeUndefined();
  });
});
