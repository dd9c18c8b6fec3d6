import { describe, expect, it } from 'vitest';
import { readChatRequest } from './read-chat-request.js';

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';

function assistant(...calls: readonly [id: string, name: string, args: string][]) {
  return {
    role: 'assistant',
    content: null,
    tool_calls: calls.map(([id, name, args]) => ({
      id,
      type: 'function',
      function: { name, arguments: args },
    })),
  };
}

const tool = (id: string, content: unknown) => ({ role: 'tool', tool_call_id: id, content });

function read(messages: readonly unknown[], extra: Record<string, unknown> = {}, redactResults = true) {
  const request = readChatRequest({ model: 'm', messages, ...extra }, { redactResults });
  if (request === undefined) throw new Error('not read');
  return request;
}

describe('readChatRequest: the turn as the history shows it', () => {
  it('counts rounds from the last user message, each with its calls and the results that answer them', () => {
    const request = read([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'first question' },
      assistant(['old', 'getStatus', '{}']),
      tool('old', 'an answer of an earlier turn'),
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'status of A-1?' },
      assistant(['c1', 'getStatus', '{"id":"A-1"}'], ['c2', 'getOwner', '{"id":"A-1"}']),
      tool('c2', 'ann'),
      tool('c1', [
        { type: 'text', text: '{"state":' },
        { type: 'text', text: '"PAID"}' },
      ]),
      assistant(['c3', 'getStatus', '{"id":"A-1"}']),
      tool('c3', '{"state":"PAID"}'),
    ]);
    expect(request.turn.rounds).toEqual([
      {
        calls: [
          {
            id: 'c1',
            name: 'getStatus',
            arguments: '{"id":"A-1"}',
            result: { content: '{"state":"PAID"}', isError: false },
          },
          {
            id: 'c2',
            name: 'getOwner',
            arguments: '{"id":"A-1"}',
            result: { content: 'ann', isError: false },
          },
        ],
      },
      {
        calls: [
          {
            id: 'c3',
            name: 'getStatus',
            arguments: '{"id":"A-1"}',
            result: { content: '{"state":"PAID"}', isError: false },
          },
        ],
      },
    ]);
    expect(request.stream).toBe(false);
    expect(request.model).toBe('m');
  });

  it('keeps one anchor for every request of a turn, and a new one for the next turn', () => {
    const opening = [{ role: 'user', content: 'status of A-1?' }];
    const first = read(opening);
    const later = read([...opening, assistant(['c1', 'getStatus', '{}']), tool('c1', 'PAID')]);
    const next = read([
      ...opening,
      { role: 'assistant', content: 'PAID' },
      { role: 'user', content: 'status of A-1?' },
    ]);
    expect(later.turn.anchor).toBe(first.turn.anchor);
    expect(next.turn.anchor).not.toBe(first.turn.anchor);
  });

  it('takes dangling calls, results of unknown ids, duplicates and calls without ids without failing', () => {
    const request = read([
      { role: 'user', content: 'go' },
      assistant(['c1', 'a', '{}'], ['c2', 'b', '{}']),
      tool('c1', 'one'),
      tool('c1', 'one again'),
      tool('nope', 'an answer to nothing'),
      {
        role: 'assistant',
        tool_calls: [{ function: { name: 'c', arguments: { x: 1 } } }, { id: 'bad' }, 'junk'],
      },
      { role: 'tool', content: 'no id' },
      'not a message',
      null,
    ]);
    const [first, second] = request.turn.rounds;
    expect(first?.calls.map((call) => [call.id, call.result?.content])).toEqual([
      ['c1', 'one'],
      ['c2', undefined],
    ]);
    expect(second?.calls).toEqual([{ id: '(no id: round 2, call 1)', name: 'c', arguments: '{"x":1}' }]);
  });

  it('is no request without a messages list (the body then passes through unchanged)', () => {
    for (const body of [null, [], 'text', 3, {}, { messages: 'x' }])
      expect(readChatRequest(body, { redactResults: true })).toBeUndefined();
  });
});

describe('readChatRequest: what goes to the provider', () => {
  const history = [
    { role: 'user', content: 'go' },
    assistant(['c1', 'fetch', '{}'], ['c2', 'fetch', '{"page":2}']),
    tool('c1', `the key is ${SECRET}`),
    tool('c2', [{ type: 'text', text: `token ${SECRET}` }]),
  ];

  it("sends the app's own bytes when nothing is redacted and no note is due", () => {
    const request = read([
      { role: 'user', content: 'go' },
      assistant(['c1', 'f', '{}']),
      tool('c1', 'plain'),
    ]);
    expect(request.body([])).toBeUndefined();
  });

  it('removes secrets from tool results, deterministically, and leaves every other field as it came', () => {
    const request = read(history, { temperature: 0.2, unknown_field: { kept: true } });
    const body = request.body([]);
    expect(body).toBeDefined();
    expect(body).not.toContain(SECRET);
    expect(read(history, { temperature: 0.2, unknown_field: { kept: true } }).body([])).toBe(body);
    const sent = JSON.parse(body as string);
    expect(sent.temperature).toBe(0.2);
    expect(sent.unknown_field).toEqual({ kept: true });
    expect(sent.messages[2].content).toContain('the key is [redacted:');
    expect(request.turn.rounds[0]?.calls[0]?.result?.content).not.toContain(SECRET);
    // Redaction off: the result goes as it came.
    expect(read(history, {}, false).body([])).toBeUndefined();
  });

  it("puts a note after its call's result (text, or a text part), and the tools-off request after all", () => {
    const request = read(history);
    const withNote = JSON.parse(request.body([{ callId: 'c2', text: 'NOTE: stop' }]) as string);
    expect(withNote.messages[3].content.at(-1)).toEqual({ type: 'text', text: 'NOTE: stop' });
    const plain = read([{ role: 'user', content: 'go' }, assistant(['c1', 'f', '{}']), tool('c1', 'r')], {
      tools: [{ type: 'function', function: { name: 'f' } }],
      parallel_tool_calls: true,
      tool_choice: 'auto',
      stream: true,
    });
    const off = JSON.parse(plain.toolsOffBody([{ callId: 'c1', text: 'NOTE' }], 'answer now'));
    expect(off.tool_choice).toBe('none');
    expect(off.parallel_tool_calls).toBeUndefined();
    expect(off.stream).toBe(true);
    expect(off.messages.at(-2).content).toBe('r\n\nNOTE');
    expect(off.messages.at(-1)).toEqual({ role: 'system', content: 'answer now' });
    // No tools offered: no tool_choice (the provider refuses one without tools).
    const bare = JSON.parse(read([{ role: 'user', content: 'go' }]).toolsOffBody([], 'answer'));
    expect(bare.tool_choice).toBeUndefined();
  });

  it('names the conversation by metadata, else the user, else the opening', () => {
    const messages = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hello' },
    ];
    expect(read(messages, { metadata: { conversation_id: 'conv-9' }, user: 'ann' }).identity).toEqual({
      conversation: 'conv-9',
      user: 'ann',
      opening: 'sys\u0000hello',
    });
    expect(read(messages, { user: 'x'.repeat(2000) }).identity.user).toBeUndefined();
  });
});
