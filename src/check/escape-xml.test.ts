import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeXml } from './escape-xml.js';

/** What XML 1.0 allows: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, and astral characters (as pairs). */
const ILLEGAL = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

describe('escapeXml', () => {
  it('escapes the five markup characters', () => {
    expect(escapeXml(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;',
    );
  });

  it('keeps tab, newline and carriage return as character references (attributes would fold them)', () => {
    expect(escapeXml('a\tb\nc\rd')).toBe('a&#9;b&#10;c&#13;d');
  });

  it('replaces characters XML 1.0 cannot carry with U+FFFD', () => {
    expect(escapeXml('nul\u0000 bell\u0007 esc\u001b \ufffe\uffff')).toBe(
      'nul\ufffd bell\ufffd esc\ufffd \ufffd\ufffd',
    );
  });

  it('keeps surrogate pairs and replaces lone surrogates', () => {
    expect(escapeXml('ok 😀')).toBe('ok 😀');
    expect(escapeXml('lone \ud800 high, lone \udc00 low, reversed \udc00\ud800')).toBe(
      'lone \ufffd high, lone \ufffd low, reversed \ufffd\ufffd',
    );
  });

  it('never leaves markup, a bare ampersand or an illegal character, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const escaped = escapeXml(text);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(escaped).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#9|#10|#13);)/);
        expect(escaped).not.toMatch(ILLEGAL);
      }),
      { numRuns: 500 },
    );
  });
});
