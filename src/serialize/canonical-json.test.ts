import { describe, expect, it } from 'vitest';
import { canonicalArguments, canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('writes an undefined field as absent, as JSON.stringify does', () => {
    expect(canonicalJson({ b: undefined, a: 1, c: [undefined] })).toBe(JSON.stringify({ a: 1, c: [null] }));
  });

  it('sorts keys at every depth and ignores whitespace between tokens', () => {
    expect(canonicalJson(JSON.parse('{ "b": 1, "a": { "d": [1, 2], "c": null } }'))).toBe(
      '{"a":{"c":null,"d":[1,2]},"b":1}',
    );
  });

  it('keeps whitespace inside strings: two spaces, four spaces and a tab are three texts', () => {
    const texts = ['spec:\n  port: 8080', 'spec:\n    port: 8080', 'spec:\n\tport: 8080'].map((text) =>
      canonicalJson({ text }),
    );
    expect(new Set(texts).size).toBe(3);
    expect(canonicalJson({ sql: "'a  b'" })).not.toBe(canonicalJson({ sql: "'a b'" }));
  });

  it('leaves out the keys it is told to, at any depth, and sorts arrays when order does not count', () => {
    const skipKey = (key: string) => key === 'checkedAt';
    const value = { status: 'pending', checkedAt: 1, inner: [{ checkedAt: 2, id: 'b' }, { id: 'a' }] };
    expect(canonicalJson(value, { skipKey })).toBe('{"inner":[{"id":"b"},{"id":"a"}],"status":"pending"}');
    expect(canonicalJson(value, { skipKey, unordered: true })).toBe(
      '{"inner":[{"id":"a"},{"id":"b"}],"status":"pending"}',
    );
  });
});

describe('canonicalArguments', () => {
  it('normalizes numbers, key order and JSON whitespace of the text the model sent', () => {
    expect(canonicalArguments('{"n": 1.0, "q": "a"}')).toBe(canonicalArguments('{"q":"a","n":1}'));
    expect(canonicalArguments('{"n": 1e2}')).toBe('{"n":100}');
  });

  it('reads empty text as {} and compares text that is not JSON as it is, trimmed', () => {
    expect(canonicalArguments('  ')).toBe('{}');
    expect(canonicalArguments(' {"a": ')).toBe('{"a":');
  });

  it('falls back to the text for arguments too deep to write, instead of throwing', () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    expect(() => canonicalArguments(deep)).not.toThrow();
  });

  it('keeps a __proto__ key as data', () => {
    expect(canonicalArguments('{"__proto__": {"x": 1}, "a": 2}')).toBe('{"__proto__":{"x":1},"a":2}');
  });
});
