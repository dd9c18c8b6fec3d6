import { describe, expect, it } from 'vitest';
import { callFingerprint, hash53, resultFingerprint } from './fingerprint.js';

describe('fingerprints', () => {
  it('treat reordered keys, reformatted numbers and extra whitespace as the same call', () => {
    const a = callFingerprint('search', '{"q": "cheap   flights ", "page": 1.0, "opts": {"b": 2, "a": 1}}');
    const b = callFingerprint('search', '{"opts":{"a":1,"b":2},"page":1,"q":"cheap flights"}');
    expect(a).toBe(b);
  });

  it('tell different arguments and different tools apart', () => {
    const base = callFingerprint('search', '{"q":"rome"}');
    expect(callFingerprint('search', '{"q":"paris"}')).not.toBe(base);
    expect(callFingerprint('lookup', '{"q":"rome"}')).not.toBe(base);
  });

  it('treat blank arguments as {} and compare broken JSON as normalized text', () => {
    expect(callFingerprint('t', '  ')).toBe(callFingerprint('t', '{}'));
    expect(callFingerprint('t', '{"a":  1')).toBe(callFingerprint('t', '{"a": 1'));
    expect(callFingerprint('t', '{"a": 1')).not.toBe(callFingerprint('t', '{"a": 2'));
  });

  it('digest results by their exact text', () => {
    expect(resultFingerprint('{"state":"PAID"}')).toBe(resultFingerprint('{"state":"PAID"}'));
    expect(resultFingerprint('{"state":"PAID"}')).not.toBe(resultFingerprint('{"state":"SHIPPED"}'));
  });

  it('hash long and hostile strings without trouble', () => {
    expect(hash53('x'.repeat(1_000_000))).toMatch(/^[0-9a-z]+\.[0-9a-z]+$/);
    expect(hash53('')).not.toBe(hash53(' '));
  });
});
