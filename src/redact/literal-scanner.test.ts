import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Literal, LiteralScanner } from './literal-scanner.js';

const escapeLiteral = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the scanner must agree with: one regex alternation per case mode. */
function reference(literals: readonly Literal[]): (text: string) => boolean {
  const sensitive = literals.filter((l) => !l.ignoreCase).map((l) => escapeLiteral(l.text));
  const insensitive = literals.filter((l) => l.ignoreCase).map((l) => escapeLiteral(l.text));
  const a = sensitive.length > 0 ? new RegExp(sensitive.join('|')) : undefined;
  const b = insensitive.length > 0 ? new RegExp(insensitive.join('|'), 'i') : undefined;
  return (text) => (a?.test(text) ?? false) || (b?.test(text) ?? false);
}

const LITERALS: Literal[] = [
  { text: 'at ', ignoreCase: false },
  { text: 'AKIA', ignoreCase: false },
  { text: 'select', ignoreCase: true },
  { text: 'sk-', ignoreCase: false },
  { text: '@', ignoreCase: false },
  { text: '.', ignoreCase: false },
  { text: ':\\', ignoreCase: false },
  { text: 'Key (', ignoreCase: false },
  { text: 'token', ignoreCase: true },
  { text: 'to', ignoreCase: false },
];

describe('LiteralScanner', () => {
  const scanner = new LiteralScanner(LITERALS);

  it('finds a literal anywhere, honouring each literal case mode', () => {
    expect(scanner.test('no match here')).toBe(false);
    expect(scanner.test('failed at foo')).toBe(true);
    expect(scanner.test('AT ')).toBe(false);
    expect(scanner.test('SeLeCt')).toBe(true);
    expect(scanner.test('akia')).toBe(false);
    expect(scanner.test('xAKIA')).toBe(true);
    expect(scanner.test('a@b')).toBe(true);
    expect(scanner.test('C:\\x')).toBe(true);
    expect(scanner.test('TOKEN')).toBe(true);
    expect(scanner.test('Key (id)')).toBe(true);
    expect(scanner.test('key (id)')).toBe(false);
    expect(scanner.test('sel')).toBe(false);
    expect(scanner.test('')).toBe(false);
  });

  it('ignores non-ASCII text, which case folding never maps onto ASCII', () => {
    // U+212A KELVIN SIGN and U+017F LONG S fold to k and s only under the regex `u` flag.
    expect(scanner.test('\u212Aey (x) \u017Felect')).toBe(false);
    expect(scanner.test('日本語 select')).toBe(true);
  });

  it('agrees with a regex alternation on arbitrary text', () => {
    const expected = reference(LITERALS);
    const piece = fc.oneof(
      fc.constantFrom(...LITERALS.map((l) => l.text), 'SELECT', 'Token', 'AKI', 'sk', ':', 'k'),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const text = pieces.join('');
        expect(scanner.test(text)).toBe(expected(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses literals it cannot scan for', () => {
    expect(() => new LiteralScanner([{ text: '', ignoreCase: false }])).toThrow(/printable ASCII/);
    expect(() => new LiteralScanner([{ text: 'clé', ignoreCase: true }])).toThrow(/printable ASCII/);
  });

  it('scans a megabyte in one pass', () => {
    const text = `${'x'.repeat(1_000_000)}token`;
    expect(scanner.test(text)).toBe(true);
    expect(scanner.test(text.slice(0, -5))).toBe(false);
  });
});
