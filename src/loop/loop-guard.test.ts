import { describe, expect, it } from 'vitest';
import { DEFAULT_GUARD_WINDOW_ROUNDS } from '../defaults.js';
import type { LoopThresholds } from './detect-loops.js';
import { EMPTY_GUARD_STATE, type GuardState } from './guard-types.js';
import { observeRound, restoreGuardState } from './loop-guard.js';

const thresholds: LoopThresholds = {
  repeatLimit: 3,
  sameResultLimit: 3,
  maxCyclePeriod: 4,
  noProgressRounds: 4,
  transientRepeatLimit: 5,
};

describe('observeRound', () => {
  it('keeps a bounded window however many rounds pass', () => {
    let state: GuardState = EMPTY_GUARD_STATE;
    for (let i = 0; i < 10_000; i++) {
      state = observeRound(state, [{ tool: 't', call: `t#${i}`, result: `r${i}` }], thresholds).state;
    }
    expect(state.window).toHaveLength(DEFAULT_GUARD_WINDOW_ROUNDS);
    expect(state.nextRound).toBe(10_001);
    expect(JSON.stringify(state).length).toBeLessThan(5_000);
  });

  it('counts stale rounds: only rounds that bring nothing new', () => {
    let state: GuardState = EMPTY_GUARD_STATE;
    const same = [{ tool: 't', call: 't#a', result: 'r' }];
    state = observeRound(state, same, thresholds).state;
    expect(state.staleRounds).toBe(0);
    state = observeRound(state, [{ tool: 't', call: 't#b', result: 'r' }], thresholds).state;
    expect(state.staleRounds).toBe(1);
    state = observeRound(state, [{ tool: 't', call: 't#c', result: 'new' }], thresholds).state;
    expect(state.staleRounds).toBe(0);
  });

  it('does not mutate the state it is given', () => {
    const frozen = Object.freeze({ ...EMPTY_GUARD_STATE });
    const next = observeRound(frozen, [{ tool: 't', call: 't#a', result: 'r' }], thresholds).state;
    expect(frozen.window).toHaveLength(0);
    expect(next.window).toHaveLength(1);
  });
});

describe('restoreGuardState', () => {
  it('round-trips a saved state through JSON', () => {
    const state = observeRound(
      EMPTY_GUARD_STATE,
      [{ tool: 't', call: 't#a', result: 'r' }],
      thresholds,
    ).state;
    expect(restoreGuardState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it.each([
    ['undefined', undefined],
    ['a string', 'state'],
    ['a future schema', { schemaVersion: 2, window: [], nudged: [] }],
    ['a window that is not an array', { schemaVersion: 1, window: {}, nudged: [] }],
  ])('starts afresh from %s', (_name, value) => {
    expect(restoreGuardState(value)).toEqual(EMPTY_GUARD_STATE);
  });

  it('drops hostile rounds and prototype keys without polluting anything', () => {
    const hostile = JSON.parse(
      '{"schemaVersion":1,"nextRound":3,"staleRounds":0,"nudged":["a",5],"window":[{"round":1,"calls":[{"tool":"t","call":"c","result":"r","__proto__":{"polluted":1}}]},{"round":"x","calls":[]},{"round":2,"calls":[{"tool":1}]}],"__proto__":{"polluted":1}}',
    );
    const state = restoreGuardState(hostile);
    expect(state.window).toEqual([
      { round: 1, calls: [{ tool: 't', call: 'c', result: 'r' }], signature: 'c>r' },
    ]);
    expect(state.nudged).toEqual(['a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
