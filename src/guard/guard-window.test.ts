import { describe, expect, it } from 'vitest';
import type { RoundRecord } from './guard-types.js';
import { dropOldestRound, entryAt, roundStart, windowOf, windowRounds } from './guard-window.js';

const rounds: RoundRecord[] = [
  { round: 4, calls: [{ tool: 'a', call: 1, result: 2 }] },
  { round: 5, calls: [] },
  {
    round: 6,
    calls: [
      { tool: 'b', call: 3, result: 4, transient: true },
      { tool: 'c', call: 2 ** 53 - 1, result: 0 },
    ],
  },
];

describe('GuardWindow', () => {
  it('holds rounds as columns and gives the same rounds back', () => {
    const window = windowOf(rounds);
    expect(window.calls).toEqual([1, 3, 2 ** 53 - 1]);
    expect(window.roundSizes).toEqual([1, 0, 2]);
    expect(windowRounds(window)).toEqual(rounds);
  });

  it('finds where each round starts, counted from the end', () => {
    const window = windowOf(rounds);
    expect([0, 1, 2].map((index) => roundStart(window, index))).toEqual([0, 1, 1]);
    expect(entryAt(window, 1)).toEqual({ tool: 'b', call: 3, result: 4, transient: true });
  });

  it('drops the oldest round with its entries, whatever their number', () => {
    const window = windowOf(rounds);
    dropOldestRound(window);
    expect(windowRounds(window)).toEqual(rounds.slice(1));
    dropOldestRound(window);
    expect(windowRounds(window)).toEqual(rounds.slice(2));
    expect(window.tools).toEqual(['b', 'c']);
    dropOldestRound(window);
    dropOldestRound(window);
    expect(windowRounds(window)).toEqual([]);
    expect(window.calls).toEqual([]);
  });
});
