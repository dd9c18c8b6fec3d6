import { describe, expect, it } from 'vitest';
import { EMPTY_GUARD_STATE } from './guard-state.js';
import { type RunState, runStateWith } from './run-state.js';

// Every field set: a field added to `RunState` makes this fixture fail to compile until it is here, and
// then the first test fails until `runStateWith` copies it.
const FULL: Required<RunState> = {
  schemaVersion: 2,
  runId: 'run-1',
  sessionId: 'session-1',
  turnId: 'turn-1',
  messages: [{ role: 'user', content: 'hi' }],
  pending: [
    { toolCallId: 'c1', toolName: 'pay', arguments: '{}', argumentsSummary: '{}', argumentsDigest: 'd' },
  ],
  roundTrips: 3,
  usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
  elapsedMs: 40,
  toolCalls: 5,
  nextCallId: 6,
  guard: EMPTY_GUARD_STATE,
};

describe('runStateWith', () => {
  it('keeps every field it is not told to change', () => {
    expect(runStateWith(FULL, {})).toStrictEqual(FULL);
  });

  it('writes the fields in one order, whatever order the state had', () => {
    const { guard, sessionId, ...rest } = FULL;
    const shuffled = { guard, ...rest, sessionId } as RunState;
    expect(Object.keys(runStateWith(shuffled, {}))).toEqual(Object.keys(FULL));
  });

  it('changes what it is told and returns a new state, the old one unchanged', () => {
    const next = runStateWith(FULL, { roundTrips: 4, messages: [], elapsedMs: 41 });
    expect(next).not.toBe(FULL);
    expect([next.roundTrips, next.messages, next.elapsedMs]).toEqual([4, [], 41]);
    expect(FULL.roundTrips).toBe(3);
  });

  it('ends a pause with pending: null (the field absent, as JSON has it)', () => {
    const next = runStateWith(FULL, { pending: null });
    expect('pending' in next).toBe(false);
    expect(JSON.parse(JSON.stringify(next))).toStrictEqual(next);
  });

  it('leaves absent optional fields absent', () => {
    const { sessionId: _s, turnId: _t, pending: _p, guard: _g, ...bare } = FULL;
    expect(Object.keys(runStateWith(bare, { toolCalls: 9 })).sort()).toEqual(Object.keys(bare).sort());
  });
});
