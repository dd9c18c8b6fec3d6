import { describe, expect, it } from 'vitest';
import { callHash, createHashState, hash53, hashText } from './call-hash.js';
import { callFingerprint, callFingerprintText, resultFingerprint } from './fingerprint.js';

describe('fingerprints', () => {
  it('treat reordered keys, reformatted numbers and extra whitespace as the same call', () => {
    const a = callFingerprint('search', '{"q": "cheap   flights ", "page": 1.0, "opts": {"b": 2, "a": 1}}');
    const b = callFingerprint('search', '{"opts":{"a":1,"b":2},"page":1,"q":"cheap flights"}');
    expect(a).toBe(b);
    const flat = callFingerprint('search', '{"q": " cheap\\t\\tflights", "page": 1.0}');
    expect(flat).toBe(callFingerprint('search', '{"page":1,"q":"cheap flights"}'));
  });

  it('give the same fingerprint to raw arguments and to the same arguments already parsed', () => {
    const raw = '{"q": "  rome  hotels", "n": 2.0, "x": null}';
    expect(callFingerprint('search', raw)).toBe(
      callFingerprint('search', 'ignored when parsed is given', { x: null, q: 'rome hotels', n: 2 }),
    );
    expect(callFingerprint('t', '[1, {"b": 1, "a": 2}]')).toBe(callFingerprint('t', '', [1, { a: 2, b: 1 }]));
  });

  it('tell different arguments and different tools apart', () => {
    const base = callFingerprint('search', '{"q":"rome"}');
    expect(callFingerprint('search', '{"q":"paris"}')).not.toBe(base);
    expect(callFingerprint('lookup', '{"q":"rome"}')).not.toBe(base);
    expect(callFingerprint('search', '{"q":"rome","p":1}')).not.toBe(base);
    expect(callFingerprint('search', '{"q":"rome"}', { q: 'rome', p: undefined })).toBe(base);
  });

  it('treat blank arguments as {} and compare broken JSON as normalized text', () => {
    expect(callFingerprint('t', '  ')).toBe(callFingerprint('t', '{}'));
    expect(callFingerprint('t', '{"a":  1')).toBe(callFingerprint('t', '{"a": 1'));
    expect(callFingerprint('t', '{"a": 1')).not.toBe(callFingerprint('t', '{"a": 2'));
  });

  it('read as tool#digest, the form loop evidence shows', () => {
    const number = callHash(createHashState(), 'search', '{"q":"rome"}');
    expect(callFingerprint('search', '{"q":"rome"}')).toBe(callFingerprintText('search', number));
    expect(callFingerprint('search', '{"q":"rome"}')).toMatch(/^search#[0-9a-z]+\.[0-9a-z]+$/);
  });

  it('digest results by their exact text', () => {
    expect(resultFingerprint('{"state":"PAID"}')).toBe(resultFingerprint('{"state":"PAID"}'));
    expect(resultFingerprint('{"state":"PAID"}')).not.toBe(resultFingerprint('{"state":"SHIPPED"}'));
    expect(resultFingerprint('a')).not.toBe(resultFingerprint(' a'));
  });

  it('hash long and hostile strings without trouble', () => {
    expect(hashText(hash53('x'.repeat(1_000_000)))).toMatch(/^[0-9a-z]+\.[0-9a-z]+$/);
    expect(hash53('')).not.toBe(hash53(' '));
  });

  it('keep the digest stable (persisted session state compares against it)', () => {
    expect(hash53('hello')).toBe(4625896200565286);
    expect(hashText(hash53(''))).toBe('gnug.7h0j2b');
    for (const text of ['', 'a', 'x'.repeat(1000), '\u{1F600}'])
      expect(Number.isSafeInteger(hash53(text)) && hash53(text) >= 0).toBe(true);
  });
});
