import { describe, expect, it } from 'vitest';
import { columnWidths, pipeRow, pipeTable } from './pipe-table.js';

describe('pipe tables', () => {
  it('pads each column to its widest cell, header included', () => {
    expect(
      pipeTable(
        ['#', 'name'],
        [
          ['1', 'a'],
          ['12', 'abc'],
        ],
      ),
    ).toEqual(['| #  | name |', '| -- | ---- |', '| 1  | a    |', '| 12 | abc  |']);
    expect(columnWidths(['ab'], [['a'], ['abcd']])).toEqual([4]);
  });

  it('cuts a cell longer than its column with …, to the column width', () => {
    expect(pipeRow(['1', 'a loop that spans two requests'], [2, 10])).toBe('| 1  | a loop th… |');
  });
});
