import { describe, expect, it } from 'vitest';
import { ECHO, READ_FILE, SEQUENTIAL_THINKING, WRITE_FILE } from './__fixtures__/mcp-tools.js';
import { filterTools } from './filter-tools.js';
import { matchesPattern } from './tool-pattern.js';

const TOOLS = [SEQUENTIAL_THINKING, WRITE_FILE, READ_FILE, ECHO];

describe('filterTools', () => {
  it('passes every tool through unchanged when no list applies: the same objects, in order', () => {
    const seen = filterTools(TOOLS, { allow: undefined, deny: [] });
    expect(seen).toHaveLength(TOOLS.length);
    for (const [index, tool] of seen.entries()) expect(tool).toBe(TOOLS[index]);
    expect(seen[0]).toEqual(SEQUENTIAL_THINKING);
  });

  it('leaves out what deny names and what allow does not, deny winning', () => {
    const names = (allow: string[] | undefined, deny: string[]) =>
      filterTools(TOOLS, { allow, deny }).map((tool) => tool.name);
    expect(names(undefined, ['write_file'])).toEqual(['sequentialthinking', 'read_text_file', 'echo']);
    expect(names(['*_file'], [])).toEqual(['write_file', 'read_text_file']);
    expect(names(['*_file'], ['write_*'])).toEqual(['read_text_file']);
    expect(names(['*'], ['*'])).toEqual([]);
    expect(names([], [])).toEqual([]);
  });
});

describe('matchesPattern', () => {
  it('matches * against any run of characters and everything else literally', () => {
    expect(matchesPattern('echo', 'echo')).toBe(true);
    expect(matchesPattern('echo', 'echo2')).toBe(false);
    expect(matchesPattern('*', '')).toBe(true);
    expect(matchesPattern('a*b*c', 'aXXbYYc')).toBe(true);
    expect(matchesPattern('a*b*c', 'aXXbYY')).toBe(false);
    expect(matchesPattern('*_delete', 'entity_delete')).toBe(true);
    expect(matchesPattern('fs.?', 'fs.x')).toBe(false);
  });

  it('answers a pathological pattern on a long name (no exponential backtracking)', () => {
    expect(matchesPattern(`${'*a'.repeat(100)}*b`, 'a'.repeat(10_000))).toBe(false);
  });
});
