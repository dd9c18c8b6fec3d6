import { describe, expect, it } from 'vitest';
import { createSseParser } from '../sse-events.js';
import { MessagesStreamReader } from './messages-stream-reader.js';

const ev = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

const START = ev('message_start', {
  message: { id: 'msg_1', model: 'claude', content: [], usage: { input_tokens: 20, output_tokens: 1 } },
});
const TEXT = [
  ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Checking.' } }),
  ev('content_block_stop', { index: 0 }),
];
const CALL = [
  ev('content_block_start', {
    index: 1,
    content_block: { type: 'tool_use', id: 'tu1', name: 'getStatus', input: {} },
  }),
  ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"id":' } }),
  ev('content_block_delta', {
    index: 1,
    delta: { type: 'input_json_delta', partial_json: '"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}' },
  }),
  ev('content_block_stop', { index: 1 }),
];
const END = [
  ev('message_delta', {
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 30 },
  }),
  ev('message_stop', {}),
];

function drive(
  reader: MessagesStreamReader,
  text: string,
  onDecide: (reader: MessagesStreamReader) => string,
) {
  const parser = createSseParser(1 << 20);
  let out = '';
  let decisions = 0;
  for (const event of parser.push(text)) {
    const step = reader.push(event);
    out += step.write;
    if (step.decide) {
      decisions++;
      out += onDecide(reader);
    }
  }
  return { out, decisions };
}

const types = (text: string) => [...text.matchAll(/^event: (.*)$/gm)].map((match) => match[1]);

describe('MessagesStreamReader', () => {
  it('passes text at once, holds the tool_use block until the answer says how it stopped, then releases it', () => {
    const reader = new MessagesStreamReader({ redactArguments: false, maxHeldBytes: 1 << 20 });
    const before = drive(reader, [START, ...TEXT, ...CALL].join(''), () => '');
    expect(types(before.out)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
    ]);
    const after = drive(reader, END.join(''), (r) => {
      expect(r.answer()).toMatchObject({
        calls: [
          {
            id: 'tu1',
            name: 'getStatus',
            arguments: '{"id":"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}',
          },
        ],
        text: 'Checking.',
        finishReasons: ['tool_use'],
        usage: { inputTokens: 20, outputTokens: 30 },
      });
      return r.release();
    });
    expect(after.decisions).toBe(1);
    expect(types(after.out)).toEqual([
      ...Array(4)
        .fill(0)
        .map(
          (_, i) =>
            ['content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop'][i],
        ),
      'message_delta',
      'message_stop',
    ]);
    expect(reader.ended()).toBe(true);
  });

  it('redacts a released call’s input into one delta', () => {
    const reader = new MessagesStreamReader({ redactArguments: true, maxHeldBytes: 1 << 20 });
    const { out } = drive(reader, [START, ...CALL, ...END].join(''), (r) => r.release());
    expect(out).not.toContain('sk-proj-abc');
    expect(out.match(/input_json_delta/g)).toHaveLength(1);
  });

  it('a stop ends the message with the gateway’s text, no tool_use, end_turn', () => {
    const reader = new MessagesStreamReader({ redactArguments: false, maxHeldBytes: 1 << 20 });
    const { out } = drive(reader, [START, ...TEXT, ...CALL, END[0]].join(''), (r) => r.finish('I stopped.'));
    expect(out).not.toContain('tool_use');
    expect(out).toContain('"index":1,"content_block":{"type":"text"');
    expect(out).toContain('"stop_reason":"end_turn"');
    expect(types(out).at(-1)).toBe('message_stop');
  });

  it('a continuation goes on in the app’s message: no second message_start, its blocks numbered after', () => {
    const first = new MessagesStreamReader({ redactArguments: false, maxHeldBytes: 1 << 20 });
    drive(first, [START, ...TEXT, ...CALL, END[0]].join(''), () => '');
    const next = new MessagesStreamReader({ redactArguments: false, maxHeldBytes: 1 << 20, after: first });
    const { out } = drive(
      next,
      [
        START.replace('msg_1', 'msg_2'),
        ...TEXT,
        ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }),
        END[1],
      ].join(''),
      (r) => r.release(),
    );
    expect(types(out)).not.toContain('message_start');
    expect(out).toContain('"index":1');
    expect(out).not.toContain('"index":0');
  });

  it('a cut stream ends with its open block closed, max_tokens and message_stop, and no tool_use', () => {
    const reader = new MessagesStreamReader({ redactArguments: false, maxHeldBytes: 1 << 20 });
    const { out } = drive(reader, [START, TEXT[0], TEXT[1]].join(''), () => '');
    const end = reader.cut();
    expect(types(out + end)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(end).toContain('max_tokens');
    const held = new MessagesStreamReader({ redactArguments: false, maxHeldBytes: 1 << 20 });
    drive(held, [START, ...CALL].join(''), () => '');
    expect(held.cut()).not.toContain('tool_use');
    // Cut before anything: a message_start first, as the SDKs need.
    expect(types(new MessagesStreamReader({ redactArguments: false, maxHeldBytes: 10 }).cut())).toEqual([
      'message_start',
      'message_delta',
      'message_stop',
    ]);
  });

  it('refuses to hold calls past its bound', () => {
    const reader = new MessagesStreamReader({ redactArguments: false, maxHeldBytes: 100 });
    expect(() => drive(reader, [START, ...CALL].join(''), () => '')).toThrow(/over 100 bytes/);
  });
});
