import { describe, expect, it } from 'vitest';
import { checkCeiling } from './check-ceiling.js';
import type { ResolvedLoopOptions } from './loop-options.js';

const options: ResolvedLoopOptions = {
  maxRoundTrips: 5,
  tokenBudget: 1000,
  timeBudgetMs: 60_000,
  costBudget: 1,
  guard: undefined,
  fallback: () => '',
};
const spend = {
  roundTrips: 0,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  elapsedMs: 0,
  cost: 0,
};

describe('checkCeiling', () => {
  it('allows a call under every limit', () => {
    expect(checkCeiling(spend, options)).toBeUndefined();
  });

  it.each([
    ['round trips', { roundTrips: 5 }, 'max-round-trips', 'round-trips'],
    [
      'tokens',
      { usage: { inputTokens: 600, outputTokens: 400, totalTokens: 1000 } },
      'budget-exhausted',
      'tokens',
    ],
    ['time', { elapsedMs: 60_000 }, 'budget-exhausted', 'time'],
    ['cost', { cost: 1.2 }, 'budget-exhausted', 'cost'],
  ])('stops on %s with the limit and what was used', (_name, patch, reason, limit) => {
    expect(checkCeiling({ ...spend, ...patch }, options)).toMatchObject({
      reason,
      evidence: { kind: 'ceiling', limit },
    });
  });
});
