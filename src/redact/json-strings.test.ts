import { describe, expect, it } from 'vitest';
import { literalValue, mapJsonStrings } from './json-strings.js';

describe('mapJsonStrings', () => {
  it('gives each literal (told whether it is a key) and what lies between, broken JSON included', () => {
    const seen: string[] = [];
    const out = mapJsonStrings(
      '{"a" : "x\\"y", "n": 12, "cut": "open',
      (literal, isKey) => {
        seen.push(`${isKey ? 'key' : 'value'} ${literalValue(literal)}`);
        return literal.toUpperCase();
      },
      (rest) => rest.replace(/\s/g, ''),
    );
    expect(seen).toEqual(['key a', 'value x"y', 'key n', 'key cut', 'value open']);
    expect(out).toBe('{"A":"X\\"Y","N":12,"CUT":"OPEN');
  });

  it('reads a literal with a broken escape as far as it can', () => {
    expect(literalValue('"a\\q"')).toBe('a\\q"');
    expect(literalValue('"tail\\"')).toBe('tail"');
  });
});
