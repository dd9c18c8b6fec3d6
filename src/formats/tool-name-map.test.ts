import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ORIGINAL_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { createToolNameMap } from './tool-name-map.js';

function expectBijection(names: readonly string[]): void {
  const map = createToolNameMap(names);
  const providerNames = new Set<string>();
  for (const name of new Set(names)) {
    const provider = map.toProvider(name);
    expect(provider).toMatch(TOOL_NAME_PATTERN);
    expect(map.toOriginal(provider as string)).toBe(name);
    providerNames.add(provider as string);
  }
  expect(providerNames.size).toBe(new Set(names).size);
}

describe('createToolNameMap', () => {
  it('leaves legal names alone and cleans the others as BFCL does', () => {
    const map = createToolNameMap(['get_weather', 'math.sqrt', 'files read', 'get-env']);
    expect(map.entries()).toEqual([
      ['get_weather', 'get_weather'],
      ['math.sqrt', 'math_sqrt'],
      ['files read', 'files_read'],
      ['get-env', 'get-env'],
    ]);
    expect(map.toOriginal('math_sqrt')).toBe('math.sqrt');
    expect(map.toProvider('unknown')).toBeUndefined();
    expect(map.toOriginal('unknown')).toBeUndefined();
  });

  it('gives a clash a hash suffix, and the legal name keeps its own name', () => {
    const map = createToolNameMap(['a.b', 'a_b', 'a b']);
    expect(map.toProvider('a_b')).toBe('a_b');
    expect(map.toProvider('a.b')).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(map.toProvider('a b')).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(map.toProvider('a.b')).not.toBe(map.toProvider('a b'));
    expectBijection(['a.b', 'a_b', 'a b']);
  });

  it('maps two long names that share their first 64 characters to different names', () => {
    const prefix = 'x'.repeat(64);
    const map = createToolNameMap([`${prefix}.one`, `${prefix}.two`, 'y'.repeat(65)]);
    for (const [, provider] of map.entries()) {
      expect(provider).toHaveLength(64);
      expect(provider).toMatch(TOOL_NAME_PATTERN);
    }
    expectBijection([`${prefix}.one`, `${prefix}.two`, 'y'.repeat(65)]);
  });

  it('never takes a name that a legal original already has, even one shaped like a hashed name', () => {
    const hashed = createToolNameMap(['a.b', 'a b']).toProvider('a.b') as string;
    const map = createToolNameMap(['a.b', 'a b', hashed]);
    expect(map.toProvider(hashed)).toBe(hashed);
    expect(map.toProvider('a.b')).not.toBe(hashed);
    expectBijection(['a.b', 'a b', hashed]);
  });

  it('depends on the set of names only: order and repeats do not change it', () => {
    const names = ['a.b', 'a_b', 'a b', 'ü.x', '_.x', 'z'.repeat(80), 'z'.repeat(81)];
    const forward = createToolNameMap(names);
    const backward = createToolNameMap([...names].reverse().concat(names));
    for (const name of names) expect(backward.toProvider(name)).toBe(forward.toProvider(name));
  });

  it('is a bijection onto legal names for any set of names (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', '_', '-', '.', ' ', 'ü', '/', '😀');
    const name = fc.oneof(
      fc.string({ unit: alphabet, minLength: 1, maxLength: 8 }),
      fc.string({ unit: alphabet, minLength: 60, maxLength: 80 }),
    );
    fc.assert(fc.property(fc.array(name, { maxLength: 30 }), (names) => expectBijection(names)));
  });

  it.each([
    ['a non-iterable', 42, /originalNames: expected an iterable/],
    ['a string', 'a.b', /originalNames: expected an iterable/],
    ['a non-string name', ['ok', 7], /originalNames\[1\]: a tool name must be a string, got number/],
    ['an empty name', [''], /must not be empty/],
    ['a 10,000-character name', ['n'.repeat(10_000)], /has 10000 characters; at most 256/],
  ])('refuses %s with a clear error', (_label, input, message) => {
    expect(() => createToolNameMap(input as never)).toThrow(InvalidOptionsError);
    expect(() => createToolNameMap(input as never)).toThrow(message);
  });

  it('accepts a name of exactly the longest length', () => {
    expectBijection(['n'.repeat(MAX_ORIGINAL_TOOL_NAME_LENGTH)]);
  });
});
