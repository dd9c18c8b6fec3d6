import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/message.js';
import { readConversation } from './read-conversation.js';

const tool = (id: string, content: string): Message => ({
  role: 'tool',
  toolCallId: id,
  name: 't',
  content,
  isError: false,
});
const calls = (...ids: string[]): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: ids.map((id) => ({ id, name: 't', arguments: '{}' })),
});

describe('readConversation', () => {
  it('reads the current request: its number, its round and its tool messages', () => {
    const messages: Message[] = [
      { role: 'user', content: 'one' },
      calls('a'),
      tool('a', '1'),
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'two' },
      calls('b', 'c'),
      tool('b', '2'),
      tool('c', '3'),
      calls('d'),
      tool('d', '4'),
    ];
    const view = readConversation(messages);
    expect(view.request).toBe(2);
    expect(view.round).toBe(3);
    expect(view.toolMessages.map((m) => m.content)).toEqual(['2', '3', '4']);
    expect(view.lastTool?.content).toBe('4');
  });

  it('reads a conversation that has only the user message as round 1 of request 1, with nothing yet', () => {
    expect(readConversation([{ role: 'user', content: 'hi' }])).toEqual({
      round: 1,
      request: 1,
      toolMessages: [],
      lastTool: undefined,
    });
  });
});
