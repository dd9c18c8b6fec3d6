import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  failureOf,
  rebuild,
  shuffler,
  sortedStringify,
  textOf,
  withoutNegativeZero,
} from './__fixtures__/serialize-helpers.js';
import { serializeValue } from './serialize-value.js';

describe('serializeValue: JSON basics', () => {
  it('prints compact JSON with keys sorted at every level', () => {
    expect(textOf(serializeValue({ b: 1, a: { d: [true, null, 'x'], c: 2.5 } }))).toBe(
      '{"a":{"c":2.5,"d":[true,null,"x"]},"b":1}',
    );
  });

  it('sorts keys by code unit, including integer-like keys that objects list first', () => {
    const value = { b: 1, 10: 2, 9: 3, B: 4, é: 5, _: 6 };
    expect(Object.keys(value)).toEqual(['9', '10', 'b', 'B', 'é', '_']);
    expect(textOf(serializeValue(value))).toBe('{"10":2,"9":3,"B":4,"_":6,"b":1,"é":5}');
  });

  it('gives the same text whatever the insertion order of keys (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer(), (value, seed) => {
        const reordered = rebuild(value, shuffler(seed));
        const reversed = rebuild(value, (keys) => [...keys].reverse());
        const expected = textOf(serializeValue(value));
        expect(textOf(serializeValue(reordered))).toBe(expected);
        expect(textOf(serializeValue(reversed))).toBe(expected);
      }),
    );
  });

  it('matches JSON.stringify of a key-sorted copy for JSON values (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(textOf(serializeValue(value))).toBe(sortedStringify(value));
      }),
    );
  });

  it('round-trips JSON values through JSON.parse, modulo -0 (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(textOf(serializeValue(value)))).toEqual(withoutNegativeZero(value));
      }),
    );
  });

  it('escapes strings as JSON does, including lone surrogates', () => {
    expect(textOf(serializeValue({ s: 'a"b\\c\n\u0001\ud800' }))).toBe('{"s":"a\\"b\\\\c\\n\\u0001\\ud800"}');
  });

  it('keeps an own "__proto__" key (as JSON.parse creates) as a normal key', () => {
    const value: unknown = JSON.parse('{"z":0,"__proto__":{"polluted":true}}');
    expect(textOf(serializeValue(value))).toBe('{"__proto__":{"polluted":true},"z":0}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('serializeValue: special values', () => {
  it('prints a Date as its ISO string and an invalid Date as null', () => {
    const date = new Date(Date.UTC(2024, 1, 29, 12, 30, 45, 678));
    expect(textOf(serializeValue(date))).toBe('"2024-02-29T12:30:45.678Z"');
    expect(textOf(serializeValue({ at: date, bad: new Date(Number.NaN) }))).toBe(
      '{"at":"2024-02-29T12:30:45.678Z","bad":null}',
    );
  });

  it('prints a Date subclass as a Date, ignoring an overridden toISOString', () => {
    class Stamp extends Date {
      override toISOString(): string {
        return 'overridden';
      }
    }
    expect(textOf(serializeValue(new Stamp(0)))).toBe('"1970-01-01T00:00:00.000Z"');
  });

  it('drops undefined properties, prints undefined array items as null and top-level undefined as null', () => {
    expect(textOf(serializeValue({ a: undefined, b: 1, c: undefined }))).toBe('{"b":1}');
    expect(textOf(serializeValue({ a: undefined }))).toBe('{}');
    expect(textOf(serializeValue([undefined, 1, undefined]))).toBe('[null,1,null]');
    // biome-ignore lint/suspicious/noSparseArray: a hole reads as undefined
    expect(textOf(serializeValue([1, , 3]))).toBe('[1,null,3]');
    expect(textOf(serializeValue(undefined))).toBe('null');
  });

  it('prints a BigInt as a decimal string', () => {
    expect(textOf(serializeValue(123n))).toBe('"123"');
    expect(textOf(serializeValue({ big: -(2n ** 80n) }))).toBe('{"big":"-1208925819614629174706176"}');
  });

  it('prints NaN and infinities as null and -0 as 0', () => {
    expect(textOf(serializeValue([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0]))).toBe(
      '[null,null,null,0]',
    );
    expect(textOf(serializeValue(-0))).toBe('0');
    expect(textOf(serializeValue(1e21))).toBe('1e+21');
  });

  it('prints a Map as [key, value] entries sorted by key text', () => {
    const map = new Map<unknown, unknown>([
      ['b', 1],
      [2, 'two'],
      ['a', undefined],
      [{ k: 1 }, [true]],
    ]);
    expect(textOf(serializeValue({ m: map }))).toBe('{"m":[["a",null],["b",1],[2,"two"],[{"k":1},[true]]]}');
  });

  it('orders Map entries with equal key texts by their value texts', () => {
    const a = new Map<unknown, unknown>([
      [{ k: 1 }, 'y'],
      [{ k: 1 }, 'x'],
    ]);
    const b = new Map<unknown, unknown>([
      [{ k: 1 }, 'x'],
      [{ k: 1 }, 'y'],
    ]);
    expect(textOf(serializeValue(a))).toBe('[[{"k":1},"x"],[{"k":1},"y"]]');
    expect(textOf(serializeValue(b))).toBe(textOf(serializeValue(a)));
  });

  it('prints a Set as its elements sorted by their text', () => {
    expect(textOf(serializeValue(new Set<unknown>(['b', 3, 'a', { z: 1 }, null])))).toBe(
      '["a","b",3,null,{"z":1}]',
    );
  });

  it('gives the same text for Maps and Sets whatever their insertion order (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.string(), fc.jsonValue()), { selector: ([key]) => key }),
        fc.integer(),
        (entries, seed) => {
          const order = shuffler(seed)(entries.map((_, i) => String(i)));
          const shuffled = order.map((i) => entries[Number(i)] as [string, unknown]);
          const mapA = new Map(entries);
          const mapB = new Map(shuffled);
          expect(textOf(serializeValue(mapB))).toBe(textOf(serializeValue(mapA)));
          const setA = new Set(entries.map(([key]) => key));
          const setB = new Set(shuffled.map(([key]) => key));
          expect(textOf(serializeValue(setB))).toBe(textOf(serializeValue(setA)));
        },
      ),
    );
  });

  it('uses toJSON, passing the key as JSON.stringify does', () => {
    const seen: string[] = [];
    const item = {
      toJSON(key: string) {
        seen.push(key);
        return { wrapped: key };
      },
    };
    expect(textOf(serializeValue({ x: item, list: [item] }))).toBe(
      '{"list":[{"wrapped":"0"}],"x":{"wrapped":"x"}}',
    );
    expect(seen.sort()).toEqual(['0', 'x']);
    expect(textOf(serializeValue(item))).toBe('{"wrapped":""}');
  });

  it('applies toJSON once per position, not to its own result', () => {
    let calls = 0;
    const inner = {
      v: 1,
      toJSON: () => {
        calls++;
        return 'inner';
      },
    };
    const outer = { toJSON: () => inner };
    expect(failureOf(serializeValue(outer))).toMatchObject({ reason: 'function', path: '/toJSON' });
    expect(calls).toBe(0);
    expect(textOf(serializeValue({ toJSON: () => ({ child: inner }) }))).toBe('{"child":"inner"}');
    expect(calls).toBe(1);
  });

  it('serializes a Buffer through its toJSON', () => {
    expect(textOf(serializeValue(Buffer.from('hi')))).toBe('{"data":[104,105],"type":"Buffer"}');
  });

  it('prints an Error as { name, message } only, never its stack or other properties', () => {
    const error = Object.assign(new TypeError('bad input'), { secret: 'token', code: 'E1' });
    const text = textOf(serializeValue({ error }));
    expect(text).toBe('{"error":{"message":"bad input","name":"TypeError"}}');
    expect(text).not.toContain('at ');
    class CustomError extends Error {
      override name = 'CustomError';
    }
    expect(textOf(serializeValue(new CustomError('x')))).toBe('{"message":"x","name":"CustomError"}');
  });

  it('prints typed arrays, DataViews and ArrayBuffers as arrays of numbers', () => {
    expect(textOf(serializeValue(new Uint8Array([1, 2, 255])))).toBe('[1,2,255]');
    expect(textOf(serializeValue(new Float64Array([1.5, Number.NaN, -0])))).toBe('[1.5,null,0]');
    expect(textOf(serializeValue(new BigInt64Array([-5n, 7n])))).toBe('["-5","7"]');
    expect(textOf(serializeValue(new Uint8Array([9, 8, 7]).buffer))).toBe('[9,8,7]');
    const bytes = new Uint8Array([1, 2, 3, 4]);
    expect(textOf(serializeValue(new DataView(bytes.buffer, 1, 2)))).toBe('[2,3]');
  });

  it('unwraps boxed primitives', () => {
    expect(textOf(serializeValue([Object('s'), Object(2), Object(false), Object(3n)]))).toBe(
      '["s",2,false,"3"]',
    );
    expect(failureOf(serializeValue({ s: Object(Symbol('x')) }))).toMatchObject({
      reason: 'symbol',
      path: '/s',
    });
  });

  it('prints class instances as their own enumerable string keys, ignoring symbol keys', () => {
    class Point {
      x = 1;
      y = 2;
      get sum(): number {
        return this.x + this.y;
      }
      norm(): number {
        return 0;
      }
    }
    const point = new Point();
    Object.defineProperty(point, 'hidden', { value: 3, enumerable: false });
    (point as unknown as Record<symbol, unknown>)[Symbol('tag')] = () => 0;
    expect(textOf(serializeValue(point))).toBe('{"x":1,"y":2}');
    expect(textOf(serializeValue({ [Symbol('k')]: 1, a: 2 }))).toBe('{"a":2}');
  });

  it('serializes the same object twice when it appears in sibling positions', () => {
    const shared = { v: [1] };
    expect(textOf(serializeValue({ a: shared, b: shared, c: [shared, shared] }))).toBe(
      '{"a":{"v":[1]},"b":{"v":[1]},"c":[{"v":[1]},{"v":[1]}]}',
    );
    const map = new Map([
      ['x', shared],
      ['y', shared],
    ]);
    expect(textOf(serializeValue(map))).toBe('[["x",{"v":[1]}],["y",{"v":[1]}]]');
  });

  it('serializes the same object twice in sibling positions deep inside a value', () => {
    const shared = { v: [1] };
    let value: unknown = [shared, shared, []];
    for (let i = 0; i < 50; i++) value = [value];
    const text = textOf(serializeValue(value));
    expect(text).toBe(`${'['.repeat(51)}{"v":[1]},{"v":[1]},[]${']'.repeat(51)}`);
  });
});

describe('serializeValue: the flat fast path', () => {
  const primitive = fc.oneof(
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.double(),
    fc.integer(),
  );

  it('prints a flat object exactly as the full walk prints it in any key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), primitive), (record) => {
        const sorted = Object.fromEntries(
          Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        );
        const reversed = Object.fromEntries(Object.entries(sorted).reverse());
        const viaSorted = serializeValue(sorted);
        const viaReversed = serializeValue(reversed);
        expect(viaSorted).toEqual(viaReversed);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves objects with a prototype other than Object.prototype to the full walk', () => {
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: 2 });
    expect(serializeValue(nullProto)).toEqual({ ok: true, text: '{"a":2,"b":1}' });
    expect(serializeValue({ a: -0, b: Number.NaN })).toEqual({ ok: true, text: '{"a":0,"b":null}' });
  });
});
