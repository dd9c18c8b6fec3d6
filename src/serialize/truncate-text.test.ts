import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_CHARS_FOR_TRUNCATION_MARKER, truncateText } from './truncate-text.js';

const MARKER = /…\[truncated: showing ([\d,]+) of ([\d,]+) characters\]$/;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** True when `prefix` (cut from `text`) ends between the two halves of a surrogate pair. */
function splitsPair(text: string, prefix: string): boolean {
  return (
    prefix.length > 0 &&
    isHighSurrogate(prefix.charCodeAt(prefix.length - 1)) &&
    isLowSurrogate(text.charCodeAt(prefix.length))
  );
}

describe('truncateText', () => {
  it('returns text that fits unchanged', () => {
    expect(truncateText('hello', 5)).toEqual({ text: 'hello', truncated: false, originalLength: 5 });
    expect(truncateText('', 0)).toEqual({ text: '', truncated: false, originalLength: 0 });
    expect(truncateText('x'.repeat(1000), Number.POSITIVE_INFINITY).truncated).toBe(false);
  });

  it('keeps a prefix and appends a readable marker within the budget', () => {
    const text = 'abcdefghij'.repeat(25_000);
    const result = truncateText(text, 100_000);
    expect(result.truncated).toBe(true);
    expect(result.originalLength).toBe(250_000);
    expect(result.text.length).toBe(100_000);
    expect(result.text.slice(99_950)).toBe('…[truncated: showing 99,950 of 250,000 characters]');
    // Compared as a boolean to keep a failure message short.
    expect(result.text.slice(0, 99_950) === text.slice(0, 99_950)).toBe(true);
  });

  it('truncates one character over the budget', () => {
    const result = truncateText('y'.repeat(101), 100);
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(100);
    expect(result.text).toMatch(MARKER);
  });

  it('stays within the budget, keeps a true prefix and reports its length (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 3000 }),
        fc.integer({ min: MIN_CHARS_FOR_TRUNCATION_MARKER, max: 3000 }),
        (text, maxChars) => {
          const result = truncateText(text, maxChars);
          expect(result.originalLength).toBe(text.length);
          expect(result.text.length).toBeLessThanOrEqual(maxChars);
          if (text.length <= maxChars) {
            expect(result).toEqual({ text, truncated: false, originalLength: text.length });
            return;
          }
          expect(result.truncated).toBe(true);
          const match = MARKER.exec(result.text);
          expect(match).not.toBeNull();
          const shown = Number((match?.[1] ?? '').replaceAll(',', ''));
          const total = Number((match?.[2] ?? '').replaceAll(',', ''));
          expect(total).toBe(text.length);
          const prefix = result.text.slice(0, shown);
          expect(result.text.length).toBe(shown + (match?.[0].length ?? 0));
          expect(text.startsWith(prefix)).toBe(true);
          expect(splitsPair(text, prefix)).toBe(false);
          // Uses the budget: at most a digit and a separator of the count, plus one unit for a pair, are lost.
          expect(result.text.length).toBeGreaterThanOrEqual(maxChars - 3);
        },
      ),
    );
  });

  it('never cuts a surrogate pair in half', () => {
    const emoji = '😀'; // two UTF-16 units
    const text = emoji.repeat(100);
    for (let maxChars = 64; maxChars < 120; maxChars++) {
      const result = truncateText(text, maxChars);
      const shown = Number(MARKER.exec(result.text)?.[1]);
      expect(shown % 2).toBe(0);
      expect(result.text.length).toBeLessThanOrEqual(maxChars);
      expect(result.text.slice(0, shown)).toBe(emoji.repeat(shown / 2));
    }
  });

  it('keeps a lone high surrogate that is not followed by its pair', () => {
    const text = `${'a'.repeat(10)}\ud800${'b'.repeat(10)}`;
    expect(truncateText(text, 11).text).toBe(`${'a'.repeat(10)}\ud800`);
  });

  it('below the marker threshold, returns only the prefix, still without splitting a pair', () => {
    expect(truncateText('abcdefghij', 4)).toEqual({ text: 'abcd', truncated: true, originalLength: 10 });
    expect(truncateText('ab😀cd', 3)).toEqual({ text: 'ab', truncated: true, originalLength: 6 });
    expect(truncateText('x'.repeat(100), 63).text).toBe('x'.repeat(63));
    expect(truncateText('x'.repeat(100), 64).text).toMatch(MARKER);
  });

  it('treats 0, negative and NaN budgets as 0 and floors fractions', () => {
    expect(truncateText('abc', 0)).toEqual({ text: '', truncated: true, originalLength: 3 });
    expect(truncateText('abc', -5)).toEqual({ text: '', truncated: true, originalLength: 3 });
    expect(truncateText('abc', Number.NaN)).toEqual({ text: '', truncated: true, originalLength: 3 });
    expect(truncateText('abc', 2.9)).toEqual({ text: 'ab', truncated: true, originalLength: 3 });
  });

  it('groups digits of large counts independently of the locale', () => {
    const result = truncateText('z'.repeat(1_234_567), 1000);
    expect(result.text).toMatch(/…\[truncated: showing 9\d\d of 1,234,567 characters\]$/);
  });
});
