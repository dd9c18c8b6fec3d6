import { describe, expect, it } from 'vitest';
import { toToolCallInput } from './to-tool-call-input.js';

const LIMITS = { maxBytes: 1024, maxDepth: 8 };

describe('toToolCallInput', () => {
  it('parses arguments toolwarden accepts', () => {
    expect(toToolCallInput('{"city": "Paris", "days": [1, 2]}', LIMITS)).toEqual({
      city: 'Paris',
      days: [1, 2],
    });
    expect(toToolCallInput('  ', LIMITS)).toEqual({});
  });

  it.each([
    ['text that stops mid-JSON', '{"city": "Par'],
    ['not JSON at all', 'city=Paris'],
    ['an array', '[1, 2]'],
    ['a string', '"Paris"'],
    ['null', 'null'],
    ['a prototype key', '{"__proto__": {"polluted": true}}'],
    ['nesting deeper than the limit', `${'{"a":'.repeat(9)}1${'}'.repeat(9)}`],
    ['text over the byte limit', JSON.stringify({ blob: 'x'.repeat(2000) })],
  ])('sends {} for %s, so the prompt stays well-formed', (_name, raw) => {
    const input = toToolCallInput(raw, LIMITS);
    expect(input).toEqual({});
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
  });
});
