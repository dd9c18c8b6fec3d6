import { describe, expect, it } from 'vitest';
import { DEFAULT_GUARD_WINDOW_ROUNDS, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../defaults.js';
import type { LoopThresholds } from './detect-loops.js';
import { type CallRecord, EMPTY_GUARD_STATE, NO_FINDINGS } from './guard-types.js';
import { createLoopGuard, markNudged, observeRound, snapshotGuard, wasNudged } from './loop-guard.js';

const thresholds: LoopThresholds = {
  repeatLimit: 3,
  sameResultLimit: 3,
  maxCyclePeriod: 4,
  noProgressRounds: 4,
  transientRepeatLimit: 5,
};
const record = (call: number, result: number, tool = 't'): CallRecord => ({ tool, call, result });

describe('LoopGuard', () => {
  it('keeps a bounded window however many rounds pass', () => {
    const guard = createLoopGuard(thresholds);
    for (let i = 0; i < 10_000; i++) observeRound(guard, [record(i, 1_000_000 + i)]);
    const state = snapshotGuard(guard);
    expect(state.window).toHaveLength(DEFAULT_GUARD_WINDOW_ROUNDS);
    expect(state.window.map((round) => round.round)).toEqual(
      Array.from(
        { length: DEFAULT_GUARD_WINDOW_ROUNDS },
        (_, i) => 10_000 - DEFAULT_GUARD_WINDOW_ROUNDS + 1 + i,
      ),
    );
    expect(state.window.at(-1)?.calls).toEqual([record(9_999, 1_009_999)]);
    expect(state.nextRound).toBe(10_001);
    expect(JSON.stringify(state).length).toBeLessThan(5_000);
    // Dropped rounds leave the arrays in batches: never more than twice the window.
    expect(guard.window.calls.length).toBeLessThanOrEqual(2 * DEFAULT_GUARD_WINDOW_ROUNDS);
    expect(guard.window.roundSizes.length).toBeLessThanOrEqual(2 * DEFAULT_GUARD_WINDOW_ROUNDS);
  });

  it('remembers at most the per-round cap of calls, and rounds of changing size correctly', () => {
    const guard = createLoopGuard(thresholds);
    const many = Array.from({ length: DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND + 5 }, (_, i) => record(i, i));
    for (let i = 0; i < 3 * DEFAULT_GUARD_WINDOW_ROUNDS; i++)
      observeRound(guard, i % 3 === 0 ? many : [record(100 + i, 100 + i)]);
    const sizes = snapshotGuard(guard).window.map((round) => round.calls.length);
    expect(Math.max(...sizes)).toBe(DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND);
    expect(sizes.at(-1)).toBe(1);
    expect(snapshotGuard(guard).window.at(-1)?.calls).toEqual([record(195, 195)]);
  });

  it('counts stale rounds: only rounds that bring nothing new', () => {
    const guard = createLoopGuard(thresholds);
    observeRound(guard, [record(1, 7)]);
    expect(snapshotGuard(guard).staleRounds).toBe(0);
    observeRound(guard, [record(2, 7)]);
    expect(snapshotGuard(guard).staleRounds).toBe(1);
    observeRound(guard, [{ ...record(3, 7), transient: true }]);
    expect(snapshotGuard(guard).staleRounds).toBe(1);
    observeRound(guard, [record(3, 8)]);
    expect(snapshotGuard(guard).staleRounds).toBe(0);
  });

  it('returns the shared empty findings when nothing is found, and findings when something is', () => {
    const guard = createLoopGuard(thresholds);
    expect(observeRound(guard, [record(1, 1)])).toBe(NO_FINDINGS);
    expect(observeRound(guard, [record(1, 1)]).map((f) => [f.level, f.evidence.detector])).toEqual([
      ['warn', 'exact-repeat'],
    ]);
    expect(observeRound(guard, [record(1, 1)])[0]).toMatchObject({
      level: 'stop',
      evidence: { detector: 'exact-repeat', occurrences: 3, rounds: [1, 2, 3] },
    });
  });

  it('hands out snapshots that later rounds do not change', () => {
    const guard = createLoopGuard(thresholds);
    observeRound(guard, [record(1, 1)]);
    const before = snapshotGuard(guard);
    const copy = JSON.parse(JSON.stringify(before));
    for (let i = 0; i < 2 * DEFAULT_GUARD_WINDOW_ROUNDS; i++) observeRound(guard, [record(10 + i, 10 + i)]);
    markNudged(guard, 'k');
    expect(before).toEqual(copy);
  });

  it('continues from a restored state: its window counts, its rounds keep numbering', () => {
    const first = createLoopGuard(thresholds);
    observeRound(first, [record(1, 1)]);
    observeRound(first, [record(1, 1)]);
    const second = createLoopGuard(thresholds, JSON.parse(JSON.stringify(snapshotGuard(first))));
    expect(observeRound(second, [record(1, 1)])[0]).toMatchObject({
      level: 'stop',
      evidence: { rounds: [1, 2, 3] },
    });
    expect(snapshotGuard(second).nextRound).toBe(4);
  });

  it('remembers nudges, a bounded number of them', () => {
    const guard = createLoopGuard(thresholds, EMPTY_GUARD_STATE);
    markNudged(guard, 'a');
    expect(wasNudged(guard, 'a')).toBe(true);
    expect(wasNudged(guard, 'b')).toBe(false);
    for (let i = 0; i < 100; i++) markNudged(guard, `k${i}`);
    expect(wasNudged(guard, 'a')).toBe(false);
    expect(snapshotGuard(guard).nudged).toHaveLength(DEFAULT_GUARD_WINDOW_ROUNDS);
  });
});
