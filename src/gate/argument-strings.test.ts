import { describe, expect, it } from 'vitest';
import { argumentStrings } from './argument-strings.js';

describe('argumentStrings: the values to withhold from an issue at a path', () => {
  const args = {
    user: { name: 'Jane Doe', pin: 123456, age: 42, tags: ['vip', 'quote"d'] },
    other: 'elsewhere',
  };

  it('takes the strings and long numbers under the path, with JSON-escaped forms', () => {
    expect(argumentStrings(args, '/user').sort()).toEqual(
      ['123456', 'Jane Doe', 'quote"d', 'quote\\"d'].sort(),
    );
    expect(argumentStrings(args, '/user/tags/1')).toEqual(['quote"d', 'quote\\"d']);
    expect(argumentStrings(args, '')).toContain('elsewhere');
  });

  it('leaves short strings and short numbers alone: they are words and counts as often as values', () => {
    expect(argumentStrings(args, '/user/tags/0')).toEqual([]);
    expect(argumentStrings(args, '/user/age')).toEqual([]);
  });

  it('finds nothing where the pointer leads nowhere (a missing property, a bad index, an inherited key)', () => {
    for (const pointer of [
      '/missing',
      '/user/tags/9',
      '/user/tags/01',
      '/user/tags/x',
      '/other/0',
      '/constructor',
    ]) {
      expect(argumentStrings(args, pointer)).toEqual([]);
    }
    expect(argumentStrings({ 'a/b': { '~c': 'deep value' } }, '/a~1b/~0c')).toEqual(['deep value']);
  });

  it('stays bounded on a huge argument', () => {
    const huge = Array.from({ length: 100_000 }, (_, i) => `value number ${i}`);
    expect(argumentStrings(huge, '').length).toBeLessThanOrEqual(64);
  });
});
