import { describe, expect, it } from 'vitest';
import { REPLAYED_SUCCESS_TEXT } from '../chain/idempotency/idempotency-answers.js';
import type { Message, ToolMessage } from '../core/message.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import type { ToolEffect } from '../tools/tool-effect.js';
import { NOT_EXECUTED_TEXT, writesDone } from './writes-done.js';

// A resumed run's earlier part is known only by its messages: what they cannot tell is unknown, never
// nothing done.

const EFFECTS: Record<string, ToolEffect> = { charge: 'write', search: 'read', setTag: 'idempotent-write' };
const effectOf = (tool: string) => EFFECTS[tool];

function answered(id: string, name: string, content: string, errorCode?: string): Message[] {
  const call = { id, name, arguments: '{"a":1}' };
  const tool: ToolMessage = {
    role: 'tool',
    toolCallId: id,
    name,
    content,
    isError: errorCode !== undefined,
    ...(errorCode === undefined ? {} : { errorCode }),
  };
  return [{ role: 'assistant', content: '', toolCalls: [call] }, tool];
}

describe('writesDone from the messages alone', () => {
  it('counts a success, skips its replay, a refusal and a call never executed, and says a lost reply is unknown', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Charge it.' },
      ...answered('1', 'charge', '{"charged":40}'),
      ...answered('2', 'charge', `${REPLAYED_SUCCESS_TEXT}{"charged":40}`),
      ...answered('3', 'charge', 'TOOL_ERROR: Card declined.', 'TOOL_ERROR'),
      ...answered('4', 'charge', NOT_EXECUTED_TEXT, 'INTERNAL_ERROR'),
      ...answered(
        '5',
        'charge',
        "TOOL_UNAVAILABLE: Tool 'charge' is temporarily unavailable.",
        'TOOL_UNAVAILABLE',
      ),
      ...answered('6', 'search', 'TOOL_UNAVAILABLE: down', 'TOOL_UNAVAILABLE'),
    ];
    expect(writesDone(messages, effectOf)).toEqual({
      writes: [{ tool: 'charge', times: 1, effect: 'write' }],
      outcomeUnknown: ['charge'],
    });
  });

  it('a failure of a call that never started (attempts 0) is nothing done, when this process has its result', () => {
    const messages = [
      { role: 'user', content: 'Charge it.' } as const,
      ...answered('1', 'charge', 'TOOL_UNAVAILABLE: the store is down; it was not run.', 'TOOL_UNAVAILABLE'),
    ];
    const result: ToolCallResult = {
      type: 'error',
      toolCallId: '1',
      toolName: 'charge',
      content: 'TOOL_UNAVAILABLE: the store is down; it was not run.',
      attempts: 0,
      durationMs: 0,
      code: 'TOOL_UNAVAILABLE',
      errorClass: 'transient',
      error: new Error('store down'),
    };
    expect(writesDone(messages, effectOf, [result])).toEqual({ writes: [], outcomeUnknown: [] });
    expect(writesDone(messages, effectOf).outcomeUnknown).toEqual(['charge']);
  });

  it('an unknown code, or none, is an unknown outcome; only the current request counts', () => {
    const messages: Message[] = [
      ...answered('0', 'charge', '{"charged":10}'),
      { role: 'user', content: 'Again.' },
      ...answered('1', 'charge', 'X: ?', 'NOT_A_CODE'),
    ];
    expect(writesDone(messages, effectOf)).toEqual({ writes: [], outcomeUnknown: ['charge'] });
  });

  it('an idempotent write run again as it last ran counts once; set back and forth, each time', () => {
    const again = (id: string, args: string): Message[] => [
      { role: 'assistant', content: '', toolCalls: [{ id, name: 'setTag', arguments: args }] },
      { role: 'tool', toolCallId: id, name: 'setTag', content: 'ok', isError: false },
    ];
    const same = [
      { role: 'user', content: 'Tag it.' } as const,
      ...again('1', '{"t":"a"}'),
      ...again('2', '{ "t": "a" }'),
    ];
    expect(writesDone(same, effectOf).writes).toEqual([
      { tool: 'setTag', times: 1, effect: 'idempotent-write' },
    ]);
    const back = [...same, ...again('3', '{"t":"b"}'), ...again('4', '{"t":"a"}')];
    expect(writesDone(back, effectOf).writes).toEqual([
      { tool: 'setTag', times: 3, effect: 'idempotent-write' },
    ]);
  });
});
