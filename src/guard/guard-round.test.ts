import { describe, expect, it } from 'vitest';
import { EMPTY_GUARD_STATE, type GuardState } from '../core/guard-state.js';
import type { ToolMessage } from '../core/message.js';
import { type GuardCall, guardRound } from './guard-round.js';
import { startRequest } from './loop-guard.js';
import { resolveHints } from './loop-hints.js';
import { restoreGuardState } from './restore-guard-state.js';

const config = {
  thresholds: {
    repeatLimit: 3,
    sameResultLimit: 3,
    maxCyclePeriod: 4,
    noProgressRounds: 4,
    transientRepeatLimit: 5,
  },
  hintsOf: () => resolveHints(undefined, undefined),
};

function round(state: GuardState, args: readonly string[], content = '{"ok":true}') {
  const calls: GuardCall[] = args.map((a) => ({ tool: 't', arguments: a, content }));
  const toolMessages: ToolMessage[] = calls.map((_, i) => ({
    role: 'tool',
    toolCallId: `c${i}`,
    name: 't',
    content,
    isError: false,
  }));
  return guardRound({ state, config, isWrite: () => false, calls, toolMessages, nudge: true });
}

describe('guardRound', () => {
  it('fingerprints the arguments the model sent, not what a validator made of them', () => {
    const state = round(startRequest(EMPTY_GUARD_STATE), ['{"q":"a"}', '{"q":"a","limit":10}']).state;
    const [first, second] = state.window.at(-1)?.calls ?? [];
    expect(first?.call).not.toBe(second?.call);
  });

  it('records at most 16 calls of a 10,000-call response, one occurrence for identical ones', () => {
    const args = Array.from({ length: 10_000 }, (_, i) => `{"n":${i % 3}}`);
    const state = round(startRequest(EMPTY_GUARD_STATE), args).state;
    expect(state.window.at(-1)?.calls).toHaveLength(3);
    const distinct = round(
      startRequest(EMPTY_GUARD_STATE),
      args.map((_, i) => `{"n":${i}}`),
    ).state;
    expect(distinct.window.at(-1)?.calls).toHaveLength(16);
  });

  it('puts the note beside the first call of the round that repeats, once per finding', () => {
    let state = startRequest(EMPTY_GUARD_STATE);
    state = round(state, ['{"n":1}']).state;
    const warned = round(state, ['{"n":2}', '{"n":1}', '{"n":1}']);
    expect(warned.toolMessages.map((m) => m.note === undefined)).toEqual([true, false, true]);
    expect(warned.toolMessages.map((m) => m.content)).toEqual(['{"ok":true}', '{"ok":true}', '{"ok":true}']);
    expect(warned.warnings).toHaveLength(1);
    expect(warned.state.nudged).toHaveLength(1);
  });

  it('gives the model one note per round, however many warnings the round has', () => {
    const state = round(startRequest(EMPTY_GUARD_STATE), ['{"n":1}', '{"n":2}']).state;
    const warned = round(state, ['{"n":1}', '{"n":2}']);
    expect(warned.warnings.map((w) => w.nudged)).toEqual([true, false]);
    expect(warned.toolMessages.filter((m) => m.note !== undefined)).toHaveLength(1);
  });

  it('writes records and rounds as restoreGuardState reads them back, field order included', () => {
    const content = JSON.stringify({ text: 'x'.repeat(200) });
    const calls: GuardCall[] = [{ tool: 't', arguments: '{"v":1}', content }];
    const toolMessages: ToolMessage[] = [
      { role: 'tool', toolCallId: 'w', name: 't', content, isError: false },
    ];
    const { state } = guardRound({
      state: startRequest(EMPTY_GUARD_STATE),
      config,
      isWrite: () => true,
      calls,
      toolMessages,
      nudge: true,
    });
    expect(state.window[0]).toMatchObject({ calls: [{ write: true, content: true, novel: true }] });
    expect(JSON.stringify(restoreGuardState(JSON.parse(JSON.stringify(state))))).toBe(JSON.stringify(state));
  });
});
