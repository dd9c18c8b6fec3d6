import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECRET_KEY_HINTS } from './secret-key-words.js';
import {
  COLLAPSIBLE_WHITESPACE,
  MAY_HAVE_SECRET_KEY,
  MAY_NEED_REDACTION,
  NEEDS_COLLAPSING,
  NEEDS_NORMALIZING,
  NORMALIZING_CHARACTER,
  textTraits,
} from './text-traits.js';

const SECRET_HINT = new RegExp(SECRET_KEY_HINTS.join('|'), 'i');
const has = (text: string, bit: number) => (textTraits(text) & bit) !== 0;

/** Text that exercises every branch: ASCII controls, Unicode spaces and invisibles, colons, digits, hints. */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u000b', '\u0000', '\u007f', '\u00a0', '\u2028'),
      fc.constantFrom('\u200b', '\u202e', '\ufeff', '\ud800', 'é', '日本', ':', '::', ':80', '1', 'Token'),
      fc.constantFrom('PASS', 'key', 'jwt', 'sk-', 'AKIA', '@', '.', '/', 'aB3'.repeat(11), 'a'.repeat(31)),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 10 },
  )
  .map((pieces) => pieces.join(''));

describe('textTraits', () => {
  it('answers exactly what the normalizing, collapsing and secret-key regexes answer', () => {
    fc.assert(
      fc.property(text, (sample) => {
        expect(has(sample, NEEDS_NORMALIZING)).toBe(NORMALIZING_CHARACTER.test(sample));
        expect(has(sample, NEEDS_COLLAPSING)).toBe(COLLAPSIBLE_WHITESPACE.test(sample));
        expect(has(sample, MAY_HAVE_SECRET_KEY)).toBe(SECRET_HINT.test(sample));
      }),
      { numRuns: 3000 },
    );
  });

  it('flags what the non-literal guards look for', () => {
    expect(has('{"a": 20, "b": 22}', MAY_NEED_REDACTION)).toBe(false);
    expect(has('db:5432', MAY_NEED_REDACTION)).toBe(true);
    expect(has('fe80::1', MAY_NEED_REDACTION)).toBe(true);
    expect(has('1:2:3:4:5:6:7:8', MAY_NEED_REDACTION)).toBe(true);
    expect(has('1:2:3:4:5:6', MAY_NEED_REDACTION)).toBe(false);
    expect(has(`x ${'a'.repeat(32)} y`, MAY_NEED_REDACTION)).toBe(true);
    expect(has(`x ${'a'.repeat(31)} ${'a'.repeat(31)}`, MAY_NEED_REDACTION)).toBe(false);
    expect(has('a b', NEEDS_COLLAPSING)).toBe(false);
    expect(has('a  b', NEEDS_COLLAPSING)).toBe(true);
    expect(has('', MAY_NEED_REDACTION | NEEDS_NORMALIZING | NEEDS_COLLAPSING)).toBe(false);
  });

  it('scans a megabyte of hostile text in one pass', () => {
    const hostile = `${':'.repeat(3)}${'\u200b'.repeat(500_000)}${'x'.repeat(500_000)}`;
    const traits = textTraits(hostile);
    expect(traits & NEEDS_NORMALIZING).not.toBe(0);
    expect(traits & MAY_NEED_REDACTION).not.toBe(0);
  });
});
