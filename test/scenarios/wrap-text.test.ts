import { describe, expect, it } from 'vitest';
import { wrapText } from './wrap-text.js';

describe('wrapText', () => {
  it('breaks between words, no line longer than the width, the lines after the first indented', () => {
    const lines = wrapText('stopped at round 8, after its deadline (round 5)', 20, '  ');
    expect(lines).toEqual(['stopped at round 8,', '  after its deadline', '  (round 5)']);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
  });

  it('keeps a word longer than a line whole, and gives nothing for blank text', () => {
    expect(wrapText('a averyveryverylongword b', 8)).toEqual(['a', 'averyveryverylongword', 'b']);
    expect(wrapText('  ', 8)).toEqual([]);
  });
});
