import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLiteralMatcher } from './literal-matcher.js';

describe('createLiteralMatcher', () => {
  const matches = createLiteralMatcher(['://', 'Bearer', 'sk-', '@']);

  it('finds any literal, ignoring ASCII case, anywhere in the text', () => {
    expect(matches('see https://x')).toBe(true);
    expect(matches('BEARER abc')).toBe(true);
    expect(matches('key sk-123')).toBe(true);
    expect(matches('a@b')).toBe(true);
    expect(matches('{"a": 20, "b": 22}')).toBe(false);
    expect(matches('')).toBe(false);
    expect(matches('bear')).toBe(false);
  });

  it('agrees with a case-insensitive regex alternation on arbitrary text', () => {
    const literals = ['ab', 'Zq', 'x:', '//', 'sel'];
    const fast = createLiteralMatcher(literals);
    const slow = /ab|zq|x:|\/\/|sel/i;
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('a', 'b', 'A', 'B', 'z', 'Q', 'x', ':', '/', 's', 'E', 'l', ' ', 'é'),
        }),
        (text) => {
          expect(fast(text)).toBe(slow.test(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses literals it cannot match', () => {
    expect(() => createLiteralMatcher([''])).toThrow(TypeError);
    expect(() => createLiteralMatcher(['é'])).toThrow(TypeError);
  });
});
