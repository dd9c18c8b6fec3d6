import { describe, expect, it } from 'vitest';
import { DEFAULT_GUARD_WINDOW_ROUNDS, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../defaults.js';
import type { LoopThresholds } from './detect-loops.js';
import { EMPTY_GUARD_STATE } from './guard-types.js';
import { createLoopGuard, markNudged, observeRound, snapshotGuard } from './loop-guard.js';
import { restoreGuardState } from './restore-guard-state.js';

const thresholds: LoopThresholds = {
  repeatLimit: 3,
  sameResultLimit: 3,
  maxCyclePeriod: 4,
  noProgressRounds: 4,
  transientRepeatLimit: 5,
};
const call = { tool: 't', call: 12345, result: 678 };
const state = (window: unknown, extra: Record<string, unknown> = {}) => ({
  schemaVersion: 2,
  nextRound: 9,
  staleRounds: 1,
  nudged: [],
  window,
  ...extra,
});

describe('restoreGuardState', () => {
  it('round-trips a saved state through JSON', () => {
    const guard = createLoopGuard(thresholds);
    observeRound(guard, [{ tool: 't', call: 1, result: 2 }]);
    observeRound(guard, [{ tool: 'u', call: 2 ** 53 - 1, result: 0, transient: true }]);
    markNudged(guard, 'exact-repeat:t#a.b');
    const saved = snapshotGuard(guard);
    expect(saved.schemaVersion).toBe(2);
    expect(restoreGuardState(JSON.parse(JSON.stringify(saved)))).toEqual(saved);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'state'],
    ['an array', []],
    ['the version 1 format', { schemaVersion: 1, nextRound: 2, staleRounds: 0, window: [], nudged: [] }],
    ['a future schema', { schemaVersion: 3, window: [], nudged: [] }],
    ['a version that is a string', { schemaVersion: '2', window: [], nudged: [] }],
    ['a window that is not an array', { schemaVersion: 2, window: {}, nudged: [] }],
    ['nudges that are not an array', { schemaVersion: 2, window: [], nudged: 'a' }],
  ])('starts afresh from %s', (_name, value) => {
    expect(restoreGuardState(value)).toEqual(EMPTY_GUARD_STATE);
  });

  it('starts afresh when reading the state throws', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(restoreGuardState(hostile)).toEqual(EMPTY_GUARD_STATE);
  });

  it.each([
    ['a string fingerprint (version 1 style)', { ...call, call: 't#a.b' }],
    ['a negative fingerprint', { ...call, result: -1 }],
    ['a fractional fingerprint', { ...call, call: 1.5 }],
    ['an unsafe integer', { ...call, call: 2 ** 60 }],
    ['a tool that is not a string', { ...call, tool: 5 }],
    ['a call that is not an object', 'call'],
    ['a null call', null],
    ['a transient flag that is not a boolean', { ...call, transient: 'yes' }],
    ['a ten-megabyte tool name', { ...call, tool: 'x'.repeat(10 * 1024 * 1024) }],
  ])('starts afresh from a state with one round holding %s (never keeps the valid parts)', (_name, bad) => {
    const restored = restoreGuardState(
      state([
        { round: 1, calls: [call] },
        { round: 2, calls: [call, bad] },
      ]),
    );
    expect(restored).toEqual(EMPTY_GUARD_STATE);
  });

  it.each([
    ['a round number that is not a number', { window: [{ round: 'x', calls: [] }] }],
    ['calls that are not an array', { window: [{ round: 3, calls: 'x' }] }],
    ['a null round', { window: [null] }],
    ['a round at or after nextRound', { window: [{ round: 9, calls: [] }] }],
    ['a nextRound that is not a number', { nextRound: 'soon' }],
    ['a nextRound of 0', { nextRound: 0 }],
    ['a negative staleRounds', { staleRounds: -2 }],
    ['a nudge that is not a string', { nudged: ['a', 5] }],
    ['a ten-megabyte nudge', { nudged: ['x'.repeat(10 * 1024 * 1024)] }],
  ])('starts afresh from %s', (_name, extra) => {
    expect(restoreGuardState(state([{ round: 4, calls: [] }], extra))).toEqual(EMPTY_GUARD_STATE);
  });

  it.each([1e7, 3e7, 2 ** 32 - 1, Number.MAX_SAFE_INTEGER])(
    'bounds a hostile staleRounds of %d by the window, so a round costs what it always does',
    (staleRounds) => {
      const restored = restoreGuardState(state([{ round: 4, calls: [call] }], { staleRounds }));
      expect(restored.staleRounds).toBe(DEFAULT_GUARD_WINDOW_ROUNDS);
      const guard = createLoopGuard(thresholds, restored);
      const findings = observeRound(guard, [call]);
      expect(findings.find((f) => f.evidence.detector === 'no-progress')?.evidence.rounds.length).toBe(
        DEFAULT_GUARD_WINDOW_ROUNDS + 1,
      );
    },
  );

  it('cuts huge arrays to the guard bounds', () => {
    const rounds = Array.from({ length: 100_000 }, (_, i) => ({
      round: i + 1,
      calls: Array.from({ length: i === 99_999 ? 5_000 : 1 }, () => call),
    }));
    const restored = restoreGuardState(
      state(rounds, { nextRound: 100_001, nudged: Array.from({ length: 100_000 }, (_, i) => `k${i}`) }),
    );
    expect(restored.window).toHaveLength(DEFAULT_GUARD_WINDOW_ROUNDS);
    expect(restored.window.at(-1)?.round).toBe(100_000);
    expect(restored.window.at(-1)?.calls).toHaveLength(DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND);
    expect(restored.nudged).toHaveLength(DEFAULT_GUARD_WINDOW_ROUNDS);
    expect(restored.nudged.at(-1)).toBe('k99999');
  });

  it('copies only known fields: prototype keys neither survive nor pollute', () => {
    const hostile = JSON.parse(
      '{"schemaVersion":2,"nextRound":3,"staleRounds":0,"nudged":["a"],"window":[{"round":1,"__proto__":{"polluted":1},"calls":[{"tool":"t","call":1,"result":2,"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}]}],"__proto__":{"polluted":1}}',
    );
    const restored = restoreGuardState(hostile);
    expect(restored.window).toEqual([{ round: 1, calls: [{ tool: 't', call: 1, result: 2 }] }]);
    const [round] = restored.window;
    expect(Object.keys(round ?? {})).toEqual(['round', 'calls']);
    expect(Object.keys(round?.calls[0] ?? {})).toEqual(['tool', 'call', 'result']);
    expect(Object.getPrototypeOf(restored)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The restored state feeds a guard like any other.
    expect(snapshotGuard(createLoopGuard(thresholds, restored)).window).toEqual(restored.window);
  });
});
