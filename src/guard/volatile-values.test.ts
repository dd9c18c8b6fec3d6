import { describe, expect, it } from 'vitest';
import { maskFreshIds, maskProse, maskSpellings, maskVolatile, numberFrame } from './volatile-values.js';

const MASK = '\u2217';

describe('maskVolatile', () => {
  it('leaves out times, UUIDs, epoch readings, hex ids and opaque tokens, wherever they are', () => {
    expect(
      maskVolatile('{"ok":true,"at":"2026-12-05T10:11:12.345Z","id":"3f2a9c1e-8b7d-4e6f-9a0b-1c2d3e4f5a6b"}'),
    ).toBe(`{"ok":true,"at":"${MASK}","id":"${MASK}"}`);
    expect(maskVolatile('Request 8f2a9c1e: plan Basic, served at 1733400000123')).toBe(
      `Request ${MASK}: plan Basic, served at ${MASK}`,
    );
    expect(maskVolatile('{"next":"aB3dE5fG7hJ9kL","sha":"9fceb02d0ae598e95dc970b74767f19372d61af8"}')).toBe(
      `{"next":"${MASK}","sha":"${MASK}"}`,
    );
  });

  it('keeps structured ids, words, versions and short numbers: they mean something', () => {
    for (const text of [
      '{"order":"ORD-2024-00017","status":"shipped"}',
      '{"tracking":"1Z999AA10123456784"}',
      'user_12345 version 2.0.1 port 8080 helloworld123 getElementById',
    ])
      expect(maskVolatile(text)).toBe(text);
  });

  it('writes arguments keep their times: two reminders at two hours are two writes', () => {
    expect(
      maskFreshIds('{"at":"2026-12-05T09:00:00Z","clientMsgId":"3f2a9c1e-8b7d-4e6f-9a0b-1c2d3e4f5a6b"}'),
    ).toBe(`{"at":"2026-12-05T09:00:00Z","clientMsgId":"${MASK}"}`);
  });
});

describe('maskProse and maskSpellings', () => {
  it('leaves out prose, and writes one URL one way', () => {
    expect(maskProse('{"priority":"high","reason":"customer asked again"}')).toBe(
      `{"priority":"high","reason":"${MASK}"}`,
    );
    const urls = [
      'https://shop.example/pricing',
      'https://shop.example/pricing/',
      'http://shop.example/pricing',
      'https://www.Shop.example/pricing',
    ].map((url) => maskSpellings(`{"url":"${url}"}`));
    expect(new Set(urls)).toEqual(new Set(['{"url":"//shop.example/pricing"}']));
    expect(maskSpellings('{"url":"https://shop.example/careers"}')).not.toBe(urls[0]);
  });
});

describe('numberFrame', () => {
  it('reads whole JSON integers apart from the text: a counter one up has the same frame', () => {
    const three = numberFrame('{"attempt":3,"status":"failed"}');
    const four = numberFrame('{"attempt": 4 , "status":"failed"}');
    expect(three?.sum).toBe(3);
    expect(four?.sum).toBe(4);
    expect(numberFrame('{"attempt":4,"status":"failed"}')?.frame).toBe(three?.frame);
    expect(numberFrame('v1')).toBeUndefined();
    expect(numberFrame('{"a":1.5}')).toBeUndefined();
  });
});

describe('hostile text', () => {
  it('reads 200,000 characters of every shape in one pass each, bounded, without a hang', () => {
    for (const text of [
      'a'.repeat(200_000),
      'a1'.repeat(100_000),
      'aB3'.repeat(70_000),
      '1'.repeat(200_000),
      `"//${'a'.repeat(200_000)}`,
      `"${'x '.repeat(100_000)}`,
      `[${'9,'.repeat(100_000)}9]`,
    ]) {
      expect(maskVolatile(text).length).toBeLessThanOrEqual(text.length);
      expect(maskFreshIds(text).length).toBeLessThanOrEqual(text.length);
      expect(maskSpellings(text).length).toBeLessThanOrEqual(text.length);
      expect(maskProse(text).length).toBeLessThanOrEqual(text.length);
      const frame = numberFrame(text);
      if (frame !== undefined) expect(Number.isSafeInteger(frame.sum)).toBe(true);
    }
  });
});
