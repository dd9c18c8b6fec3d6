import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from '../sse-events.js';
import { ChatStreamReader, HeldTooMuchError } from './chat-stream-reader.js';

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';

function chunk(delta: unknown, finish: string | null = null, id = 'chatcmpl-1') {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}
const usage = (id = 'chatcmpl-1') =>
  `data: ${JSON.stringify({ id, choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } })}\n\n`;
const DONE = 'data: [DONE]\n\n';

function events(text: string): SseEvent[] {
  const parser = createSseParser(1 << 20);
  return parser.push(text);
}

/** Feeds a stream; returns what was written before the decision, and the reader at that point. */
function feed(reader: ChatStreamReader, text: string) {
  const written: string[] = [];
  let decidedAt = -1;
  events(text).forEach((event, index) => {
    const step = reader.push(event);
    written.push(step.write);
    if (step.decide && decidedAt === -1) decidedAt = index;
  });
  return { written: written.join(''), decidedAt };
}

const options = { redactArguments: false, maxHeldBytes: 1 << 20 };

const CALL_STREAM = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Check' }),
  chunk({ content: 'ing.' }),
  chunk({
    tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get', arguments: '' } }],
  }),
  chunk({
    tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'put', arguments: '' } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"id":' } }] }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: `{"key":"${SECRET}"}` } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"A-1"}' } }] }),
  chunk({}, 'tool_calls'),
  usage(),
  DONE,
];

describe('ChatStreamReader', () => {
  it('passes text at once and holds the calls until the answer says it is complete', () => {
    const reader = new ChatStreamReader(options);
    const firstNine = CALL_STREAM.slice(0, 9).join('');
    const { written, decidedAt } = feed(reader, firstNine);
    expect(written).toBe(CALL_STREAM.slice(0, 3).join(''));
    expect(decidedAt).toBe(8);
    expect(reader.answer()).toMatchObject({
      text: 'Checking.',
      calls: [
        { id: 'call_a', name: 'get', arguments: '{"id":"A-1"}' },
        { id: 'call_b', name: 'put', arguments: `{"key":"${SECRET}"}` },
      ],
      finishReasons: ['tool_calls'],
    });
    // Released: what was held, in order; what follows passes as it comes.
    expect(reader.release()).toBe(CALL_STREAM.slice(3, 9).join(''));
    expect(feed(reader, CALL_STREAM.slice(9).join('')).written).toBe(CALL_STREAM.slice(9).join(''));
    expect(reader.ended()).toBe(true);
  });

  it('decides at once on an answer without calls, its finish already written', () => {
    const reader = new ChatStreamReader(options);
    const stream = [chunk({ role: 'assistant', content: 'Hi' }), chunk({}, 'stop')].join('');
    const { written, decidedAt } = feed(reader, stream);
    expect(written).toBe(stream);
    expect(decidedAt).toBe(1);
    expect(reader.release()).toBe('');
    expect(reader.cut()).toBe(DONE);
  });

  it('splits a chunk that carries text and a call: the text goes, the call is held', () => {
    const reader = new ChatStreamReader(options);
    const mixed = chunk({
      content: 'Sure. ',
      tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
    const { written } = feed(reader, mixed);
    expect(JSON.parse(written.slice(6)).choices[0].delta).toEqual({ content: 'Sure. ' });
    expect(reader.answer().calls).toEqual([{ id: 'c', name: 'f', arguments: '{}' }]);
  });

  it('ends a cut stream cleanly: held calls dropped, a finish and [DONE] the app expects', () => {
    const reader = new ChatStreamReader(options);
    feed(reader, CALL_STREAM.slice(0, 6).join(''));
    const end = reader.cut();
    expect(end).not.toContain('tool_calls');
    const parsed = events(end).map((event) => event.data);
    expect(parsed.at(-1)).toBe('[DONE]');
    expect(JSON.parse(parsed[0] as string).choices[0]).toMatchObject({ finish_reason: 'length', delta: {} });
  });

  it('ends a stopped stream with text of its own, the first answer’s id kept', () => {
    const reader = new ChatStreamReader(options);
    feed(reader, CALL_STREAM.slice(0, 9).join(''));
    const end = events(reader.finish('I stopped.')).map((event) => event.data);
    expect(end.at(-1)).toBe('[DONE]');
    const [text, finish] = end.slice(0, 2).map((data) => JSON.parse(data as string));
    expect(text).toMatchObject({ id: 'chatcmpl-1', choices: [{ delta: { content: 'I stopped.' } }] });
    expect(finish.choices[0].finish_reason).toBe('stop');
    expect(end.join('')).not.toContain('call_a');
  });

  it('continues the first answer: every chunk of the last answer carries the first one’s id', () => {
    const first = new ChatStreamReader(options);
    feed(first, CALL_STREAM.slice(0, 9).join(''));
    const next = new ChatStreamReader({ ...options, after: first });
    const { written, decidedAt } = feed(
      next,
      [
        chunk({ role: 'assistant', content: 'Done' }, null, 'chatcmpl-2'),
        chunk({}, 'stop', 'chatcmpl-2'),
      ].join(''),
    );
    expect(decidedAt).toBe(1);
    expect(written).not.toContain('chatcmpl-2');
    expect(written).toContain('chatcmpl-1');
  });

  it('releases each call whole with its secrets removed when arguments are redacted', () => {
    const reader = new ChatStreamReader({ ...options, redactArguments: true });
    feed(reader, CALL_STREAM.slice(0, 9).join(''));
    const released = reader.release();
    expect(released).not.toContain(SECRET);
    const calls = events(released)
      .map((event) => JSON.parse(event.data as string).choices[0])
      .filter((choice) => choice.delta.tool_calls !== undefined)
      .map((choice) => choice.delta.tool_calls[0]);
    expect(calls.map((call: { id: string }) => call.id)).toEqual(['call_a', 'call_b']);
    expect(calls[0].function.arguments).toBe('{"id":"A-1"}');
  });

  it('passes what it cannot read, and refuses to hold calls past its bound', () => {
    const reader = new ChatStreamReader(options);
    expect(feed(reader, 'data: not json\n\n: comment\n\n').written).toBe('data: not json\n\n: comment\n\n');
    const small = new ChatStreamReader({ ...options, maxHeldBytes: 100 });
    expect(() => feed(small, CALL_STREAM.slice(3, 8).join(''))).toThrow(HeldTooMuchError);
  });
});
