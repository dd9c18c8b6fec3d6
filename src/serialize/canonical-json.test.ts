import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasWhitespaceInStrings, nestedArrays, textOf } from './__fixtures__/serialize-helpers.js';
import { canonicalJson, serializeValue } from './serialize-value.js';

describe('canonicalJson', () => {
  it('normalizes whitespace in string values', () => {
    expect(canonicalJson({ q: '  a   b ' })).toBe(canonicalJson({ q: 'a b' }));
    expect(canonicalJson({ q: '  a   b ' })).toBe('{"q":"a b"}');
    expect(canonicalJson(['\tx\n\ny\u00a0 z\r\n'])).toBe('["x y z"]');
    expect(canonicalJson('a\tb')).toBe('"a b"');
  });

  it('leaves object keys alone', () => {
    expect(canonicalJson({ ' k  ey ': 1 })).toBe('{" k  ey ":1}');
  });

  it('sorts keys and normalizes numbers', () => {
    expect(canonicalJson({ b: 1.0, a: -0, c: [Number.NaN, 2n] })).toBe('{"a":0,"b":1,"c":[null,"2"]}');
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });

  it('replaces what serializeValue rejects with placeholders', () => {
    const circular: Record<string, unknown> = { k: 1 };
    circular.self = circular;
    const value = {
      circular,
      fn: () => 0,
      sym: Symbol('s'),
      deep: nestedArrays(300),
      getter: {
        get g(): number {
          throw new Error('x');
        },
      },
      toJSON_: {
        toJSON() {
          throw new Error('y');
        },
      },
    };
    const text = canonicalJson(value);
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(parsed.circular).toEqual({ k: 1, self: '[Circular]' });
    expect(parsed.fn).toBe('[Function]');
    expect(parsed.sym).toBe('[Symbol]');
    expect(parsed.getter).toEqual({ g: '[Throws]' });
    expect(parsed.toJSON_).toBe('[Throws]');
    let deep: unknown = parsed.deep;
    let levels = 0;
    while (Array.isArray(deep)) {
      deep = deep[0];
      levels++;
    }
    expect(levels).toBe(255);
    expect(deep).toBe('[TooDeep]');
  });

  it('agrees with serializeValue on whitespace-normalized JSON values (property)', () => {
    const tidy = fc.jsonValue({ maxDepth: 4 }).filter((value) => !hasWhitespaceInStrings(value));
    fc.assert(
      fc.property(tidy, (value) => {
        expect(canonicalJson(value)).toBe(textOf(serializeValue(value)));
      }),
    );
  });
});

describe('canonicalJson: the flat fast path', () => {
  it('prints a flat object exactly as the full walk would (checked against a nested copy)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string(),
          fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.double(), fc.integer()),
        ),
        (record) => {
          // Wrapping in an array forces the full walk; the flat path must print the same object text.
          const viaWalk = canonicalJson([record]);
          expect(`[${canonicalJson(record)}]`).toBe(viaWalk);
        },
      ),
      { numRuns: 500 },
    );
  });
});
