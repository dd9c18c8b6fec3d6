import { describe, expect, it } from 'vitest';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { defineTool } from '../tools/define-tool.js';
import { countTurnCalls } from './limits.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };
const never = () => false;

/** A history as other code may store it: tool messages without their names. */
function namelessHistory(calls: number): Message[] {
  const history: Message[] = [user];
  for (let i = 0; i < calls; i++) {
    history.push(assistantWithCalls([{ name: 'lookup', id: `c${i}` }]));
    history.push({ role: 'tool', toolCallId: `c${i}`, content: '1', isError: false } as unknown as Message);
  }
  return history;
}

describe('countTurnCalls', () => {
  it('counts the turn from its last user message', () => {
    const history: Message[] = [
      user,
      assistantWithCalls([{ name: 'a', id: '1' }]),
      { role: 'tool', toolCallId: '1', name: 'a', content: '1', isError: false },
      user,
      assistantWithCalls([
        { name: 'a', id: '2' },
        { name: 'b', id: '3' },
      ]),
      { role: 'tool', toolCallId: '2', name: 'a', content: '1', isError: false },
      { role: 'tool', toolCallId: '3', name: 'b', content: 'x', isError: true, errorCode: 'INVALID_JSON' },
    ];
    expect(countTurnCalls(history, never)).toEqual({
      total: 2,
      perTool: new Map([
        ['b', 1],
        ['a', 1],
      ]),
      invalidPerTool: new Map([['b', 1]]),
    });
  });

  it('takes the name of a tool message without one from the call with its id', () => {
    const counts = countTurnCalls(namelessHistory(3), never);
    expect(counts.total).toBe(3);
    expect(counts.perTool.get('lookup')).toBe(3);
  });

  it('keeps per-tool limits when the history’s tool messages lack names', async () => {
    let runs = 0;
    const tool = defineTool({ name: 'lookup', description: 'd', effect: 'read', execute: () => ++runs });
    const result = await createToolRuntime({ tools: [tool], onLimitExceeded: 'feedback' }).executeToolCalls({
      messages: namelessHistory(40),
      response: assistantWithCalls([{ name: 'lookup', id: 'next' }]),
    });
    expect(runs).toBe(0);
    expect(result.results[0]).toMatchObject({ code: 'TOOL_CALL_LIMIT' });
  });

  it('counts a nameless message whose call cannot be found toward the total only', () => {
    const history = [
      user,
      { role: 'tool', toolCallId: 'lost', content: '1', isError: false } as unknown as Message,
    ];
    expect(countTurnCalls(history, never)).toMatchObject({ total: 1, perTool: new Map() });
  });
});
