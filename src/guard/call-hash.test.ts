import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../serialize/serialize-value.js';
import { callHash, createHashState, hash53 } from './call-hash.js';

/** The definition the streamed hash must agree with: the digest of `tool#canonicalJson(value)`. */
const byDefinition = (tool: string, value: unknown) => hash53(`${tool}#${canonicalJson(value)}`);

describe('callHash: the streamed canonical hash agrees with hashing canonicalJson', () => {
  const values: Array<[string, unknown]> = [
    ['an empty object', {}],
    ['sorted keys', { a: 1, b: 'x', c: true, d: null }],
    ['unsorted keys', { z: 1, a: 2, m: 3 }],
    ['integer-like keys', { 10: 'a', 2: 'b', x: 'c' }],
    ['undefined values', { a: undefined, b: 1, c: undefined }],
    ['only undefined', { a: undefined }],
    ['numbers', { a: -0, b: 1.5e21, c: 1e-7, d: 0.1, e: -12, f: Number.MAX_SAFE_INTEGER, g: 5e-324 }],
    ['non-finite numbers', { a: Number.NaN, b: Number.POSITIVE_INFINITY }],
    ['whitespace', { a: '  two  spaces\t\tand\ntabs  ', b: ' ', c: '', d: '\u00a0x\u3000y\ufeff' }],
    ['quotes and backslashes', { a: 'say "hi" \\ back', 'k"ey\\': 'v' }],
    ['control characters', { a: 'bell\u0007', b: 'nul\u0000' }],
    ['keys with whitespace and controls', { ' k  ey ': 1, 'tab\tkey': 2 }],
    ['non-ASCII text', { a: 'Zürich – café', b: '東京', c: '\u{1F600} ok \u{1F680}' }],
    ['lone surrogates', { a: 'x\ud800y', b: '\udc00', c: 'end\ud83d' }],
    ['line separators', { a: 'a\u2028b\u2029c', b: '\u0085nel' }],
    ['nesting', { a: { c: 1, b: 2 }, list: [' x ', 2] }],
    ['an array', [1, 'a  b']],
    ['a primitive', 'a  string '],
    ['a number', 42],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { b: 1, a: 'x' })],
    [
      'a class instance',
      new (class Point {
        x = 1;
        y = 2;
      })(),
    ],
    ['a Date', { at: new Date(0) }],
    ['a bigint', { n: 2n }],
    ['a function', { f: () => 1 }],
    [
      'a throwing getter',
      Object.defineProperty({}, 'boom', {
        enumerable: true,
        get() {
          throw new Error('no');
        },
      }),
    ],
    ['a proxy', new Proxy({ a: 1 }, { ownKeys: () => ['a', 'b'] })],
  ];

  it.each(values)('for %s', (_name, value) => {
    expect(callHash(createHashState(), 'tool', '', value)).toBe(byDefinition('tool', value));
  });

  it('for every UTF-16 code unit in a key and in a value', () => {
    const state = createHashState();
    const disagree: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      const value = { [`k${c}`]: `${c} a${c}${c}b ${c}`, z: c };
      if (callHash(state, 't', '', value) !== byDefinition('t', value)) disagree.push(code);
    }
    expect(disagree).toEqual([]);
  });

  it('for integers of every length and sign, and numbers around them', () => {
    const numbers = [0, -0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 53 - 1, -(2 ** 53) + 1, 1e21, 1e-7];
    for (let power = 1; power <= 1e16; power *= 10)
      numbers.push(power - 1, power, power + 1, -power, 0.5 * power);
    for (let i = -1000; i <= 1000; i += 7) numbers.push(i, i / 8);
    const state = createHashState();
    const disagree = numbers.filter((n) => callHash(state, 't', '', { n }) !== byDefinition('t', { n }));
    expect(disagree).toEqual([]);
  });

  it('with one hash state reused, whatever came before', () => {
    const shared = createHashState();
    callHash(shared, 't', '', { a: 'x\u0001' });
    callHash(shared, 't', '{"broken');
    expect(callHash(shared, 't', '', { q: 'rome' })).toBe(
      callHash(createHashState(), 't', '', { q: 'rome' }),
    );
  });
});
