import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_ROUND_TRIPS, DEFAULT_REPEAT_LIMIT } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import {
  checkStops,
  costBudget,
  loopGuard,
  maxRoundTrips,
  resolveStops,
  type StopCondition,
  type StopContext,
  stopIf,
  timeBudget,
  tokenBudget,
} from './stop-conditions.js';

const context: StopContext = {
  roundTrips: 0,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  elapsedMs: 0,
  messages: [],
};
const stops = resolveStops(
  [
    maxRoundTrips(5),
    tokenBudget(1000),
    timeBudget(60_000),
    costBudget((usage) => usage.totalTokens / 500, 1),
  ],
  false,
);

describe('checkStops', () => {
  it('allows a call under every limit', () => {
    expect(checkStops(context, stops)).toBeUndefined();
  });

  it.each([
    ['round trips', { roundTrips: 5 }, 'MAX_ROUND_TRIPS', 'round-trips', 5],
    [
      'tokens',
      { usage: { inputTokens: 600, outputTokens: 400, totalTokens: 1000 } },
      'BUDGET_EXHAUSTED',
      'tokens',
      1000,
    ],
    ['time', { elapsedMs: 60_000.4 }, 'BUDGET_EXHAUSTED', 'time', 60_000],
    [
      'cost',
      { usage: { inputTokens: 0, outputTokens: 600, totalTokens: 600 } },
      'BUDGET_EXHAUSTED',
      'cost',
      1.2,
    ],
  ])('stops on %s with the limit and what was used', (_name, patch, reason, limit, used) => {
    expect(checkStops({ ...context, ...patch }, stops)).toEqual({
      reason,
      evidence: { kind: 'ceiling', limit, max: expect.any(Number), used },
    });
  });

  it('a custom condition stops with its name, and its value as the detail', () => {
    const custom = resolveStops(
      [
        stopIf('answered', ({ messages }) => messages.some((m) => m.role === 'assistant')),
        stopIf('long', ({ messages }) => (messages.length > 2 ? { count: messages.length } : undefined)),
      ],
      false,
    );
    expect(checkStops(context, custom)).toBeUndefined();
    const three = [
      { role: 'user' as const, content: 'a' },
      { role: 'user' as const, content: 'b' },
      { role: 'user' as const, content: 'c' },
    ];
    expect(checkStops({ ...context, messages: three }, custom)).toEqual({
      reason: 'STOP_CONDITION',
      evidence: { kind: 'condition', name: 'long', detail: { count: 3 } },
    });
    expect(checkStops({ ...context, messages: [{ role: 'assistant', content: 'x' }] }, custom)).toEqual({
      reason: 'STOP_CONDITION',
      evidence: { kind: 'condition', name: 'answered' },
    });
  });

  it.each([
    [
      'a cost function that throws',
      costBudget(() => {
        throw new Error('pricing down');
      }, 1),
      'cost',
    ],
    ['a cost function that returns NaN', costBudget(() => Number.NaN, 1), 'cost'],
    ['a cost function that returns a string', costBudget((() => '3') as unknown as () => number, 1), 'cost'],
    [
      'a condition that throws',
      stopIf('boom', () => {
        throw new Error('no');
      }),
      'stopIf(boom)',
    ],
  ])('%s is a CALLBACK_FAILED stop, never a throw', (_name, condition, callback) => {
    expect(checkStops(context, resolveStops([condition], false))).toMatchObject({
      reason: 'CALLBACK_FAILED',
      evidence: { kind: 'error', callback },
    });
  });
});

describe('resolveStops', () => {
  it('always has a round-trip ceiling and the guard unless it is off; the smallest ceiling wins', () => {
    const none = resolveStops([], false);
    expect(none.maxRoundTrips).toBe(DEFAULT_MAX_ROUND_TRIPS);
    expect(none.guard?.repeatLimit).toBe(DEFAULT_REPEAT_LIMIT);
    expect(resolveStops([], true).guard).toBeUndefined();
    const both = resolveStops([maxRoundTrips(9), maxRoundTrips(4), loopGuard({ repeatLimit: 5 })], false);
    expect(both.maxRoundTrips).toBe(4);
    expect(both.guard?.repeatLimit).toBe(5);
  });

  it('refuses a loopGuard() when the guard is off, and values that are not stop conditions', () => {
    expect(() => resolveStops([loopGuard()], true)).toThrow(InvalidOptionsError);
    for (const bad of [null, 5, 'max', { type: 'frobnicate' }, new Proxy({}, {})]) {
      expect(() => resolveStops([bad as unknown as StopCondition], false)).toThrow(/stopWhen\[0\]/);
    }
  });

  it.each([
    ['maxRoundTrips(0)', () => maxRoundTrips(0)],
    ['maxRoundTrips(1.5)', () => maxRoundTrips(1.5)],
    ['tokenBudget(NaN)', () => tokenBudget(Number.NaN)],
    ['timeBudget(3_000_000_000): past what a timer holds', () => timeBudget(3_000_000_000)],
    ['timeBudget(-1)', () => timeBudget(-1)],
    ['costBudget without a function', () => costBudget(5 as unknown as () => number, 1)],
    ['costBudget(fn, 0)', () => costBudget(() => 0, 0)],
    ['loopGuard({ repeatLimit: 1 })', () => loopGuard({ repeatLimit: 1 })],
    ['loopGuard({ nudge: "yes" })', () => loopGuard({ nudge: 'yes' as unknown as boolean })],
    ['stopIf without a name', () => stopIf('', () => true)],
    ['stopIf without a function', () => stopIf('x', 5 as unknown as () => boolean)],
  ])('%s is refused when it is made', (_name, make) => {
    expect(make).toThrow(InvalidOptionsError);
  });
});
