import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../core/message.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import { countRepeatedCalls } from './count-repeated-calls.js';

/** A step whose response asks for `calls`; all of them answered unless `answered` names some. */
function step(calls: readonly (readonly [string, string, string])[], answered?: readonly string[]) {
  const toolCalls: ToolCall[] = calls.map(([id, name, args]) => ({ id, name, arguments: args }));
  const ids = answered ?? toolCalls.map((call) => call.id);
  const toolResults: ToolCallResult[] = ids.map((id) => ({
    type: 'success',
    toolCallId: id,
    toolName: 'any',
    content: 'ok',
    value: 'ok',
    truncated: false,
    attempts: 1,
    durationMs: 0,
  }));
  return { response: { role: 'assistant' as const, content: '', toolCalls }, toolResults };
}

describe('countRepeatedCalls', () => {
  it('counts a call whose tool and canonical arguments an earlier round had: keys reordered, whitespace between tokens', () => {
    const steps = [
      step([['c1', 'search', '{"q":"a","n":1}']]),
      step([['c2', 'search', '{ "n" : 1.0,\n  "q": "a" }']]),
      step([['c3', 'search', '{"q":"a","n":1}']]),
    ];
    expect(countRepeatedCalls(steps)).toBe(2);
  });

  it('does not count other arguments, another tool, or whitespace inside a string (that is content)', () => {
    const steps = [
      step([['c1', 'search', '{"q":"a"}']]),
      step([['c2', 'search', '{"q":"b"}']]),
      step([['c3', 'lookup', '{"q":"a"}']]),
      step([['c4', 'search', '{"q":"a "}']]),
      step([['c5', 'search', '{"q":"a","page":2}']]),
    ];
    expect(countRepeatedCalls(steps)).toBe(0);
  });

  it('counts repeats within one response too, and each repeat of a call once', () => {
    const steps = [
      step([
        ['c1', 'search', '{"q":"a"}'],
        ['c2', 'search', '{"q": "a"}'],
        ['c3', 'search', '{"q":"a"}'],
        ['c4', 'search', '{"q":"b"}'],
      ]),
    ];
    expect(countRepeatedCalls(steps)).toBe(2);
  });

  it('reads empty arguments as {} and text that is not JSON as it is (trimmed), without throwing', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const steps = [
      step([
        ['c1', 'ping', ''],
        ['c2', 'ping', '{}'],
        ['c3', 'ping', 'not json'],
        ['c4', 'ping', ' not json '],
        ['c5', 'ping', deep],
        ['c6', 'ping', deep],
      ]),
    ];
    expect(countRepeatedCalls(steps)).toBe(3);
  });

  it('counts a call only in the step that answered it: a paused round resumed counts each call once', () => {
    const round: readonly (readonly [string, string, string])[] = [
      ['r1', 'refund', '{"order":"A-1"}'],
      ['g1', 'getOrder', '{"order":"A-1"}'],
      ['r2', 'refund', '{"order":"A-1"}'],
    ];
    // Before the pause only g1 ran; the resume answers the two refunds (r2 repeats r1).
    const beforePause = countRepeatedCalls([step(round, ['g1'])]);
    const afterResume = countRepeatedCalls([
      step(round, ['r1', 'r2']),
      step([['g2', 'getOrder', '{"order":"A-1"}']]),
    ]);
    expect(beforePause).toBe(0);
    expect(afterResume).toBe(2);
    // The same calls in a run that never paused.
    expect(countRepeatedCalls([step(round), step([['g2', 'getOrder', '{"order":"A-1"}']])])).toBe(2);
  });

  it('is zero for no steps, and for steps the model answered without calls', () => {
    expect(countRepeatedCalls([])).toBe(0);
    expect(countRepeatedCalls([{ response: { role: 'assistant', content: 'done' }, toolResults: [] }])).toBe(
      0,
    );
  });
});
