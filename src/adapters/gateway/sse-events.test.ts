import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser, SseEventTooLargeError } from './sse-events.js';

describe('createSseParser', () => {
  it('reads events split anywhere across chunks, keeping each one exactly as it came', () => {
    const text = 'data: {"a":1}\n\n: a comment\n\nevent: ping\ndata: one\ndata: two\n\ndata: [DONE]\n\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = createSseParser(1024);
      const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(events.map((event) => event.raw).join('')).toBe(text);
      expect(events.map((event) => [event.event, event.data])).toEqual([
        [undefined, '{"a":1}'],
        [undefined, undefined],
        ['ping', 'one\ntwo'],
        [undefined, '[DONE]'],
      ]);
      expect(parser.end()).toBeUndefined();
    }
  });

  it('takes CRLF and CR line ends, and a UTF-8 character split between chunks', () => {
    const parser = createSseParser(1024);
    const bytes = new TextEncoder().encode('data: é\r\n\r\ndata: x\r\r');
    const events = [...parser.push(bytes.slice(0, 7)), ...parser.push(bytes.slice(7))];
    // A last CR may be the first half of a CRLF: the event is complete only with what follows, or at the end.
    expect(events.map((event) => event.data)).toEqual(['é']);
    expect(parser.end()?.data).toBe('x');
  });

  it('hands back an event the stream cut off, and refuses an event larger than its bound', () => {
    const parser = createSseParser(1024);
    expect(parser.push('data: {"partial"')).toEqual([]);
    expect(parser.end()?.data).toBe('{"partial"');
    const small = createSseParser(16);
    expect(() => small.push(`data: ${'x'.repeat(40)}`)).toThrow(SseEventTooLargeError);
  });

  it('fuzz: any text in any chunks gives the same events as in one chunk, and never throws below its bound', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constantFrom('data: ', 'event: e\n', '\n', '\r', '\r\n', ':', 'x', '{"a":"é"}')),
          {
            maxLength: 40,
          },
        ),
        fc.array(fc.nat({ max: 200 }), { maxLength: 5 }),
        (parts, cuts) => {
          const text = parts.join('');
          const whole = createSseParser(1 << 20);
          const once = [...whole.push(text)];
          const rest = whole.end();
          const pieces = createSseParser(1 << 20);
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          let at = 0;
          const chunked = [];
          for (const point of [...points, text.length]) {
            chunked.push(...pieces.push(text.slice(at, point)));
            at = point;
          }
          const chunkedRest = pieces.end();
          expect(chunked.map((event) => event.raw)).toEqual(once.map((event) => event.raw));
          expect(chunkedRest?.raw).toEqual(rest?.raw);
          expect(once.map((event) => event.raw).join('') + (rest?.raw ?? '')).toBe(
            rest === undefined ? text.slice(0, once.map((event) => event.raw).join('').length) : text,
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
