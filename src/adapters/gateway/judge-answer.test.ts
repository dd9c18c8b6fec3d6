import { describe, expect, it } from 'vitest';
import { EMPTY_GUARD_STATE } from '../../core/guard-state.js';
import { hintsByTool } from '../../guard/loop-hints.js';
import { resolveGuard } from '../../run/stop-conditions.js';
import type { ToolEffect } from '../../tools/tool-effect.js';
import type { GatewayPolicy } from './gateway-policy.js';
import { judgeAnswer } from './judge-answer.js';
import { replayTurn } from './replay-turn.js';
import { stopHeader, stopNote, stoppedText } from './stop-texts.js';
import type { HistoryRound, TurnHistory, WireCall } from './wire.js';

function policy(
  overrides: Partial<GatewayPolicy> = {},
  effects: Record<string, ToolEffect> = {},
): GatewayPolicy {
  return {
    limits: { perTool: 40, total: 150, roundTrips: 50, tools: {} },
    guard: resolveGuard({}),
    effectOf: (tool) => effects[tool] ?? 'unknown',
    redact: { toolResults: true, arguments: false },
    onStop: 'final-answer',
    ...overrides,
  };
}

function configOf(p: GatewayPolicy) {
  return p.guard === false
    ? undefined
    : { thresholds: p.guard, hintsOf: hintsByTool(() => undefined, p.guard.hints) };
}

let next = 0;
function round(...calls: readonly (readonly [name: string, args: string, result?: string])[]): HistoryRound {
  return {
    calls: calls.map(([name, args, result]) => ({
      id: `c${next++}`,
      name,
      arguments: args,
      ...(result === undefined ? {} : { result: { content: result, isError: false } }),
    })),
  };
}

const turn = (...rounds: HistoryRound[]): TurnHistory => ({ anchor: 'a', rounds });
const ask = (name: string, args = '{}'): WireCall => ({ id: `ask${next++}`, name, arguments: args });

function judge(history: TurnHistory, calls: readonly WireCall[], p = policy()) {
  const replay = replayTurn(EMPTY_GUARD_STATE, history, p, configOf(p));
  return { replay, verdict: judgeAnswer(history, replay, calls, p) };
}

const STATUS = ['getStatus', '{"id":"A-1"}', '{"state":"PENDING"}'] as const;

describe('the gateway judges an answer before the app sees its calls', () => {
  it('passes a loop until the history shows it, with a note beside the repeat before the stop', () => {
    const two = turn(round(STATUS), round(STATUS));
    const warned = judge(two, [ask('getStatus')]);
    expect(warned.verdict).toEqual({ kind: 'pass' });
    expect(warned.replay.notes).toHaveLength(1);
    expect(warned.replay.notes[0]?.callId).toBe(two.rounds[1]?.calls[0]?.id);
    expect(warned.replay.notes[0]?.text).toContain('getStatus was called with these same arguments 2 times');
  });

  it('stops the turn on the round that shows the loop: the next answer asking for calls is withheld', () => {
    const three = turn(round(STATUS), round(STATUS), round(STATUS));
    const { verdict, replay } = judge(three, [ask('getStatus', '{"id":"A-1"}')]);
    expect(replay.stop?.round).toBe(3);
    expect(verdict).toMatchObject({
      kind: 'stop',
      reason: 'LOOP_DETECTED',
      evidence: { kind: 'loop', detector: 'exact-repeat', toolNames: ['getStatus'], occurrences: 3 },
    });
    // An answer without calls ends the turn: it always passes.
    expect(judge(three, []).verdict).toEqual({ kind: 'pass' });
    expect(stopHeader(verdict as never, 'model')).toBe(
      'LOOP_DETECTED; detector=exact-repeat; tools=getStatus; answer=model',
    );
  });

  it('judges the same history the same way every time (a retried request, another instance)', () => {
    const history = turn(round(STATUS), round(STATUS), round(STATUS));
    const a = judge(history, [ask('getStatus')]);
    const b = judge(history, [ask('getStatus')]);
    expect(b.replay).toEqual(a.replay);
    expect(b.verdict).toEqual(a.verdict);
  });

  it('does not judge calls nobody answered (they never ran), nor with the guard off', () => {
    const dangling = turn(round(STATUS), round(STATUS), round(['getStatus', '{"id":"A-1"}']));
    expect(judge(dangling, [ask('getStatus')]).verdict).toEqual({ kind: 'pass' });
    const off = policy({ guard: false });
    const three = turn(round(STATUS), round(STATUS), round(STATUS));
    expect(judge(three, [ask('getStatus')], off).verdict).toEqual({ kind: 'pass' });
  });

  it('holds the per-tool and total limits of the turn, counting the answer calls with the history', () => {
    const p = policy({ limits: { perTool: 3, total: 5, roundTrips: 50, tools: { search: 1 } } });
    const history = turn(round(['a', '{"n":1}', 'x'], ['a', '{"n":2}', 'y']));
    expect(judge(history, [ask('a', '{"n":3}')], p).verdict).toEqual({ kind: 'pass' });
    expect(judge(history, [ask('a', '{"n":3}'), ask('a', '{"n":4}')], p).verdict).toEqual({
      kind: 'stop',
      reason: 'TOOL_CALL_LIMIT',
      evidence: { kind: 'limit', scope: 'per-tool', tool: 'a', limit: 3 },
    });
    expect(judge(turn(round(['search', '{}', 'r'])), [ask('search', '{"q":2}')], p).verdict).toMatchObject({
      evidence: { scope: 'per-tool', tool: 'search', limit: 1 },
    });
    expect(judge(history, [ask('b'), ask('c'), ask('d', '{"x":1}'), ask('e')], p).verdict).toMatchObject({
      reason: 'TOOL_CALL_LIMIT',
      evidence: { scope: 'total', limit: 5 },
    });
  });

  it('makes the turn’s last model call final (the round-trip ceiling)', () => {
    const p = policy({ limits: { perTool: 40, total: 150, roundTrips: 3, tools: {} } });
    const two = turn(round(['a', '{"n":1}', 'x']), round(['a', '{"n":2}', 'y']));
    expect(judge(two, [ask('a', '{"n":3}')], p).verdict).toEqual({
      kind: 'stop',
      reason: 'MAX_ROUND_TRIPS',
      evidence: { kind: 'ceiling', limit: 'round-trips', max: 3, used: 3 },
    });
    expect(judge(turn(round(['a', '{"n":1}', 'x'])), [ask('a', '{"n":3}')], p).verdict).toEqual({
      kind: 'pass',
    });
  });

  it("replays from the session's memory: a loop that ended the last turn stops the next one sooner", () => {
    const p = policy();
    const first = turn(round(STATUS), round(STATUS), round(STATUS));
    const ended = replayTurn(EMPTY_GUARD_STATE, first, p, configOf(p));
    const again = turn(round(STATUS));
    const fresh = replayTurn(EMPTY_GUARD_STATE, again, p, configOf(p));
    const remembered = replayTurn(ended.state, again, p, configOf(p));
    expect(fresh.stop).toBeUndefined();
    expect(remembered.stop?.evidence.detector).toBe('exact-repeat');
  });

  it('says why in the note of the last request, and what ran in the text the gateway writes itself', () => {
    const p = policy({}, { getStatus: 'read', charge: 'write' });
    const history = turn(round(['charge', '{"n":1}', 'ok']), round(['getStatus', '{}', 'x']));
    const stop = {
      kind: 'stop',
      reason: 'TOOL_CALL_LIMIT',
      evidence: { kind: 'limit', scope: 'per-tool', tool: 'charge', limit: 1 },
    } as const;
    expect(stopNote(stop)).toContain('the limit of 1 calls to charge in one request is reached');
    expect(stopNote(stop)).toContain('answer the user now');
    const text = stoppedText(stop, history, p);
    expect(text).toContain('limit of 1 calls to charge');
    expect(text).toContain('Already done before it stopped: charge (once)');
    expect(text).not.toContain('getStatus');
  });
});
