import { describe, expect, it } from 'vitest';
import { DEFAULT_GUARD_WINDOW_ROUNDS, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../core/defaults.js';
import { EMPTY_GUARD_STATE, type GuardState } from '../core/guard-state.js';
import { type GuardConfig, observeRound, startRequest, withNudged } from './loop-guard.js';
import { resolveHints } from './loop-hints.js';
import { restoreGuardState } from './restore-guard-state.js';

const config: GuardConfig = {
  thresholds: {
    repeatLimit: 3,
    sameResultLimit: 3,
    maxCyclePeriod: 4,
    noProgressRounds: 4,
    transientRepeatLimit: 5,
  },
  hintsOf: () => resolveHints(undefined, undefined),
};
const call = { tool: 't', call: 12345, result: 678, outcome: 'ok' } as const;
const state = (window: unknown, extra: Record<string, unknown> = {}) => ({
  schemaVersion: 3,
  nextRound: 9,
  request: 2,
  nudged: [],
  window,
  ...extra,
});

describe('restoreGuardState', () => {
  it('round-trips a saved state through JSON', () => {
    let saved: GuardState = startRequest(EMPTY_GUARD_STATE);
    saved = observeRound(
      saved,
      [{ tool: 't', call: 1, result: 2, outcome: 'ok', content: true }],
      config,
    ).state;
    saved = startRequest(saved);
    saved = observeRound(
      saved,
      [{ tool: 'u', call: 2 ** 53 - 1, result: 0, outcome: 'transient', write: true }],
      config,
    ).state;
    saved = observeRound(
      saved,
      [{ tool: 'v', call: 3, result: 4, outcome: 'denied', write: true }],
      config,
    ).state;
    saved = withNudged(saved, 'exact-repeat:t#a.b');
    expect(saved).toMatchObject({ schemaVersion: 4, request: 2, nextRound: 4 });
    expect(saved.window[0]?.calls[0]).toMatchObject({ novel: true });
    expect(restoreGuardState(JSON.parse(JSON.stringify(saved)))).toEqual(saved);
  });

  it('reads a valid version 2 state with its rounds as request 0 (the next request is new context)', () => {
    const v2 = {
      schemaVersion: 2,
      nextRound: 3,
      staleRounds: 1,
      nudged: ['k'],
      window: [{ round: 2, calls: [{ tool: 't', call: 1, result: 2, transient: true }] }],
    };
    expect(restoreGuardState(v2)).toEqual({
      schemaVersion: 4,
      nextRound: 3,
      request: 0,
      nudged: ['k'],
      window: [{ round: 2, request: 0, calls: [{ tool: 't', call: 1, result: 2, outcome: 'transient' }] }],
    });
  });

  it('reads a valid version 3 state with its calls as they were, none of them novel', () => {
    const v3 = {
      schemaVersion: 3,
      nextRound: 3,
      request: 1,
      nudged: [],
      window: [
        {
          round: 2,
          request: 1,
          changed: true,
          calls: [{ tool: 't', call: 1, result: 2, outcome: 'ok', write: true, content: true }],
        },
      ],
    };
    expect(restoreGuardState(v3)).toEqual({
      schemaVersion: 4,
      nextRound: 3,
      request: 1,
      nudged: [],
      window: [
        {
          round: 2,
          request: 1,
          calls: [{ tool: 't', call: 1, result: 2, outcome: 'ok', write: true, content: true }],
        },
      ],
    });
  });

  it('starts afresh from a version 4 record with a frame but no sum, or a novel flag that is not true', () => {
    const state = (record: object) => ({
      schemaVersion: 4,
      nextRound: 3,
      request: 1,
      nudged: [],
      window: [
        { round: 2, request: 1, calls: [{ tool: 't', call: 1, result: 2, outcome: 'ok', ...record }] },
      ],
    });
    expect(restoreGuardState(state({ frame: 5 }))).toEqual(EMPTY_GUARD_STATE);
    expect(restoreGuardState(state({ novel: false }))).toEqual(EMPTY_GUARD_STATE);
    expect(restoreGuardState(state({ shape: -1 }))).toEqual(EMPTY_GUARD_STATE);
    expect(
      restoreGuardState(state({ shape: 7, gist: 8, frame: 5, sum: 9, novel: true })).window[0]?.calls[0],
    ).toEqual({
      tool: 't',
      call: 1,
      shape: 7,
      gist: 8,
      result: 2,
      frame: 5,
      sum: 9,
      outcome: 'ok',
      novel: true,
    });
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'state'],
    ['an array', []],
    ['the version 1 format', { schemaVersion: 1, nextRound: 2, staleRounds: 0, window: [], nudged: [] }],
    ['a future schema', { schemaVersion: 5, nextRound: 2, request: 0, window: [], nudged: [] }],
    ['a version that is a string', { schemaVersion: '3', nextRound: 2, request: 0, window: [], nudged: [] }],
    ['a window that is not an array', { schemaVersion: 3, nextRound: 2, request: 0, window: {}, nudged: [] }],
    ['nudges that are not an array', { schemaVersion: 3, nextRound: 2, request: 0, window: [], nudged: 'a' }],
    [
      'a version 2 state with a hostile staleRounds',
      { schemaVersion: 2, nextRound: 2, staleRounds: 1e7, window: [], nudged: [] },
    ],
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
    ['a string fingerprint', { ...call, call: 't#a.b' }],
    ['a negative fingerprint', { ...call, result: -1 }],
    ['a fractional fingerprint', { ...call, call: 1.5 }],
    ['an unsafe integer', { ...call, call: 2 ** 60 }],
    ['a tool that is not a string', { ...call, tool: 5 }],
    ['a call that is not an object', 'call'],
    ['a null call', null],
    ['an unknown outcome', { ...call, outcome: 'maybe' }],
    ['no outcome', { tool: 't', call: 1, result: 2 }],
    ['a write flag that is not true', { ...call, write: false }],
    ['a content flag that is a string', { ...call, content: 'yes' }],
    ['a ten-megabyte tool name', { ...call, tool: 'x'.repeat(10 * 1024 * 1024) }],
  ])('starts afresh from a state with one round holding %s (never keeps the valid parts)', (_name, bad) => {
    const restored = restoreGuardState(
      state([
        { round: 1, request: 1, calls: [call] },
        { round: 2, request: 2, calls: [call, bad] },
      ]),
    );
    expect(restored).toEqual(EMPTY_GUARD_STATE);
  });

  it.each([
    ['a round number that is not a number', { window: [{ round: 'x', request: 1, calls: [] }] }],
    ['calls that are not an array', { window: [{ round: 3, request: 1, calls: 'x' }] }],
    ['a null round', { window: [null] }],
    ['a round at or after nextRound', { window: [{ round: 9, request: 1, calls: [] }] }],
    ['a round of a later request than the state', { window: [{ round: 3, request: 3, calls: [] }] }],
    [
      'rounds out of order',
      {
        window: [
          { round: 4, request: 1, calls: [] },
          { round: 3, request: 1, calls: [] },
        ],
      },
    ],
    [
      'requests out of order',
      {
        window: [
          { round: 3, request: 2, calls: [] },
          { round: 4, request: 1, calls: [] },
        ],
      },
    ],
    ['a round without a request', { window: [{ round: 3, calls: [] }] }],
    ['a nextRound that is not a number', { nextRound: 'soon' }],
    ['a nextRound of 0', { nextRound: 0 }],
    ['a negative request', { request: -2 }],
    ['a nudge that is not a string', { nudged: ['a', 5] }],
    ['a ten-megabyte nudge', { nudged: ['x'.repeat(10 * 1024 * 1024)] }],
  ])('starts afresh from %s', (_name, extra) => {
    expect(restoreGuardState(state([{ round: 4, request: 1, calls: [] }], extra))).toEqual(EMPTY_GUARD_STATE);
  });

  it('cuts huge arrays to the guard bounds', () => {
    const rounds = Array.from({ length: 100_000 }, (_, i) => ({
      round: i + 1,
      request: 1,
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
      '{"schemaVersion":3,"nextRound":3,"request":1,"nudged":["a"],"window":[{"round":1,"request":1,"__proto__":{"polluted":1},"calls":[{"tool":"t","call":1,"result":2,"outcome":"ok","__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}]}],"__proto__":{"polluted":1}}',
    );
    const restored = restoreGuardState(hostile);
    expect(restored.window).toEqual([
      { round: 1, request: 1, calls: [{ tool: 't', call: 1, result: 2, outcome: 'ok' }] },
    ]);
    const [round] = restored.window;
    expect(Object.keys(round ?? {})).toEqual(['round', 'request', 'calls']);
    expect(Object.keys(round?.calls[0] ?? {})).toEqual(['tool', 'call', 'result', 'outcome']);
    expect(Object.getPrototypeOf(restored)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('a guard state at the end of the safe integers (counter-overflow)', () => {
  it('starts afresh instead of writing a count no reader takes', () => {
    const end = {
      ...EMPTY_GUARD_STATE,
      nextRound: Number.MAX_SAFE_INTEGER,
      request: Number.MAX_SAFE_INTEGER,
    };
    const request = startRequest(end);
    const { state } = observeRound(request, [], config);
    expect(restoreGuardState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(state.nextRound).toBe(2);
    expect(observeRound(end, [], config).state.nextRound).toBe(2);
  });
});
