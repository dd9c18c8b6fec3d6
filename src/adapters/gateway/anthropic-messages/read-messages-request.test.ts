import { describe, expect, it } from 'vitest';
import { readMessagesRequest } from './read-messages-request.js';

const SECRET = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH';

const REQUEST = {
  model: 'claude',
  max_tokens: 100,
  system: 'You are helpful.',
  metadata: { user_id: 'ann' },
  tools: [{ name: 'getStatus', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'Status of A-1?' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'tu1', name: 'getStatus', input: { id: 'A-1' } },
        { type: 'tool_use', id: 'tu2', name: 'getOwner', input: { id: 'A-1' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'tu1', content: '{"state":"PENDING"}' },
        {
          type: 'tool_result',
          tool_use_id: 'tu2',
          content: [{ type: 'text', text: `token ${SECRET}` }],
          is_error: true,
        },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'tu3', name: 'getStatus', input: { id: 'A-1' } }],
    },
  ],
};

describe('readMessagesRequest', () => {
  it('rebuilds the turn: tool_use blocks as rounds, tool_result blocks (is_error kept) as their results', () => {
    const request = readMessagesRequest(REQUEST, { redactResults: true });
    expect(request?.turn.rounds).toEqual([
      {
        calls: [
          {
            id: 'tu1',
            name: 'getStatus',
            arguments: '{"id":"A-1"}',
            result: { content: '{"state":"PENDING"}', isError: false },
          },
          {
            id: 'tu2',
            name: 'getOwner',
            arguments: '{"id":"A-1"}',
            result: { content: 'token [redacted:key]', isError: true },
          },
        ],
      },
      { calls: [{ id: 'tu3', name: 'getStatus', arguments: '{"id":"A-1"}' }] },
    ]);
    expect(request?.identity).toEqual({ user: 'ann', opening: 'You are helpful.\u0000Status of A-1?' });
  });

  it('a user message of tool results continues the turn; one with text starts a new one', () => {
    const first = readMessagesRequest(REQUEST, { redactResults: false });
    const next = readMessagesRequest(
      {
        ...REQUEST,
        messages: [
          ...REQUEST.messages,
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu3', content: 'x' }] },
        ],
      },
      { redactResults: false },
    );
    expect(next?.turn.anchor).toBe(first?.turn.anchor);
    const fresh = readMessagesRequest(
      { ...REQUEST, messages: [...REQUEST.messages, { role: 'user', content: 'And B-2?' }] },
      { redactResults: false },
    );
    expect(fresh?.turn.rounds).toEqual([]);
    expect(fresh?.turn.anchor).not.toBe(first?.turn.anchor);
  });

  it('sends no secret, puts notes inside their tool_result, and asks the last time with tool_choice none', () => {
    const request = readMessagesRequest(REQUEST, { redactResults: true });
    const body = JSON.parse(request?.body([{ callId: 'tu1', text: 'NOTE: repeated' }]) ?? 'null');
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(body.messages[2].content[0].content).toBe('{"state":"PENDING"}\n\nNOTE: repeated');
    expect(body.metadata).toEqual({ user_id: 'ann' });
    const off = JSON.parse(request?.toolsOffBody([], 'answer now') ?? 'null');
    expect(off.tool_choice).toEqual({ type: 'none' });
    expect(off.tools).toHaveLength(1);
    expect(off.system).toBe('You are helpful.');
    expect(off.messages).toHaveLength(5);
    expect(off.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'answer now' }] });
  });

  it('sends the app’s bytes as they came when nothing is redacted or noted, and reads no body without messages', () => {
    expect(
      readMessagesRequest(
        { ...REQUEST, messages: REQUEST.messages.slice(0, 2) },
        { redactResults: true },
      )?.body([]),
    ).toBeUndefined();
    expect(readMessagesRequest({ model: 'm' }, { redactResults: true })).toBeUndefined();
    expect(readMessagesRequest([], { redactResults: true })).toBeUndefined();
  });
});
