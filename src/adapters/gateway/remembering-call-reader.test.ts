import { describe, expect, it } from 'vitest';
import { EMPTY_GUARD_STATE } from '../../core/guard-state.js';
import { type CallReading, type GuardCall, readCall } from '../../guard/guard-round.js';
import { hintsByTool } from '../../guard/loop-hints.js';
import { resolveGuard } from '../../run/stop-conditions.js';
import { mayChangeWorld } from '../../tools/tool-effect.js';
import type { GatewayPolicy } from './gateway-policy.js';
import { READING_CHARS, rememberingCallReader } from './remembering-call-reader.js';
import { replayTurn } from './replay-turn.js';
import type { HistoryRound, TurnHistory } from './wire.js';

const guard = resolveGuard({});
const config = { thresholds: guard, hintsOf: hintsByTool(() => undefined, guard.hints) };
const policy: GatewayPolicy = {
  limits: { perTool: 40, total: 150, roundTrips: 50, tools: {} },
  guard,
  effectOf: (tool) => (tool === 'charge' ? 'write' : 'read'),
  redact: { toolResults: true, arguments: false },
  onStop: 'final-answer',
};
const isWrite = (tool: string) => mayChangeWorld(policy.effectOf(tool));

/** A remembering reader over `readCall` that records the calls it was asked to read. */
function counted(maxChars: number) {
  const read: GuardCall[] = [];
  const reader = rememberingCallReader((call): CallReading => {
    read.push(call);
    return readCall(call, isWrite, config);
  }, maxChars);
  return { reader, read };
}

const call = (tool: string, args: string, content: string): GuardCall => ({ tool, arguments: args, content });

describe('rememberingCallReader', () => {
  it('reads a call once, and answers as readCall does', () => {
    const { reader, read } = counted(10_000);
    const status = call('getStatus', '{"id":"A-1"}', '{"state":"PENDING","at":"2026-12-05T10:00:00Z"}');
    expect(reader(status)).toEqual(readCall(status, isWrite, config));
    expect(reader({ ...status })).toEqual(readCall(status, isWrite, config));
    expect(read).toHaveLength(1);
  });

  it('tells calls apart whatever their texts hold: the tool, the arguments, the result, a failure', () => {
    const { reader, read } = counted(10_000);
    const calls: GuardCall[] = [
      call('a', '{"x":1}\u00001', '2'),
      call('a', '{"x":1}', '1\u00002'),
      call('a\u00001', '{"x":1}', '2'),
      { ...call('a', '{"x":1}', '2'), errorClass: 'invalid-input' },
      call('a', '{"x":1}', '2'),
    ];
    for (const each of calls) expect(reader(each)).toEqual(readCall(each, isWrite, config));
    expect(read).toHaveLength(calls.length);
  });

  it('keeps at most maxChars of calls, each counted with what its reading holds, forgetting the oldest first', () => {
    // Each key is the tool, the arguments, the result and a few separators: 10 characters here.
    const { reader, read } = counted(2 * (10 + READING_CHARS) + 5);
    const [a, b, c] = ['a', 'b', 'c'].map((tool) => call(tool, '{}', 'ok'));
    for (const each of [a, b, c, b, c, a] as GuardCall[]) reader(each);
    expect(read.map((each) => each.tool)).toEqual(['a', 'b', 'c', 'a']);
  });

  it('replays a turn as readCall does: the same state, notes and stop, request after request', () => {
    const { reader } = counted(1_000_000);
    let id = 0;
    const round = (tool: string, args: string, content: string): HistoryRound => ({
      calls: [{ id: `c${id++}`, name: tool, arguments: args, result: { content, isError: false } }],
    });
    const rounds: HistoryRound[] = [];
    for (let step = 0; step < 6; step++) {
      rounds.push(
        step < 2
          ? round('charge', `{"order":"A-1","page":${step}}`, `{"ok":true,"page":${step}}`)
          : round('getStatus', '{"id":"A-1"}', '{"state":"PENDING"}'),
      );
      const turn: TurnHistory = { anchor: 'a', rounds: [...rounds] };
      const plain = replayTurn(EMPTY_GUARD_STATE, turn, policy, config);
      const remembered = replayTurn(EMPTY_GUARD_STATE, turn, policy, config, reader);
      expect(JSON.stringify(remembered)).toBe(JSON.stringify(plain));
    }
    expect(replayTurn(EMPTY_GUARD_STATE, { anchor: 'a', rounds }, policy, config, reader).stop).toBeDefined();
  });
});
