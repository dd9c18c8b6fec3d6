import { describe, expect, it } from 'vitest';
import { fromUsage } from './from-usage.js';

describe('fromUsage', () => {
  it('reads V3 nested totals', () => {
    expect(
      fromUsage({
        inputTokens: { total: 31, noCache: 31, cacheRead: 0, cacheWrite: undefined },
        outputTokens: { total: 12, text: 12, reasoning: 0 },
      }),
    ).toEqual({ inputTokens: 31, outputTokens: 12 });
  });

  it('reads V2 flat numbers', () => {
    expect(fromUsage({ inputTokens: 7, outputTokens: 4, totalTokens: 11 })).toEqual({
      inputTokens: 7,
      outputTokens: 4,
    });
  });

  it.each([
    ['undefined totals', { inputTokens: { total: undefined }, outputTokens: { total: undefined } }],
    ['no usage', undefined],
    ['negative and NaN', { inputTokens: -5, outputTokens: { total: Number.NaN } }],
    ['strings', { inputTokens: '31', outputTokens: { total: '12' } }],
    ['Infinity', { inputTokens: Number.POSITIVE_INFINITY, outputTokens: null }],
  ])('reads %s as 0', (_name, value) => {
    expect(fromUsage(value)).toEqual({ inputTokens: 0, outputTokens: 0 });
  });
});
