import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, type SerializeOutcome, serializeValue } from './serialize-value.js';

function textOf(outcome: SerializeOutcome): string {
  if (!outcome.ok)
    throw new Error(`expected success, got ${outcome.reason} at ${outcome.path}: ${outcome.message}`);
  return outcome.text;
}

function failureOf(outcome: SerializeOutcome): { reason: string; path: string; message: string } {
  if (outcome.ok) throw new Error(`expected failure, got ${outcome.text}`);
  return { reason: outcome.reason, path: outcome.path, message: outcome.message };
}

/** Defines a property without triggering the `__proto__` setter. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Deep copy of a JSON value with every object's keys inserted in the order chosen by `order`. */
function rebuild(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => rebuild(item, order));
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of order(Object.keys(source))) define(out, key, rebuild(source[key], order));
    return out;
  }
  return value;
}

/** Reference model for JSON values: a plain recursive printer with sorted keys. */
function sortedStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const entries = Object.keys(source)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${sortedStringify(source[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

function withoutNegativeZero(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(withoutNegativeZero);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) define(out, key, withoutNegativeZero(item));
    return out;
  }
  return value;
}

function hasWhitespaceInStrings(value: unknown): boolean {
  if (typeof value === 'string') return /\s/.test(value);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasWhitespaceInStrings);
  return false;
}

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** Every key-order permutation derived from a seed, applied at every level. */
function shuffler(seed: number): (keys: string[]) => string[] {
  let state = seed >>> 0 || 1;
  return (keys) => {
    const out = [...keys];
    for (let i = out.length - 1; i > 0; i--) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      const j = state % (i + 1);
      [out[i], out[j]] = [out[j] as string, out[i] as string];
    }
    return out;
  };
}

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

describe('serializeValue: failures', () => {
  it('fails on a function value with its path', () => {
    expect(failureOf(serializeValue({ a: [{ b: () => 1 }] }))).toEqual({
      reason: 'function',
      path: '/a/0/b',
      message: 'Cannot serialize the value at /a/0/b: functions cannot be serialized',
    });
    expect(failureOf(serializeValue(() => 1))).toMatchObject({ reason: 'function', path: '' });
    expect(failureOf(serializeValue([1, 2, class {}]))).toMatchObject({ reason: 'function', path: '/2' });
  });

  it('fails on a symbol value with its path', () => {
    expect(failureOf(serializeValue({ x: { y: [0, Symbol('s')] } }))).toMatchObject({
      reason: 'symbol',
      path: '/x/y/1',
    });
    expect(failureOf(serializeValue(Symbol.iterator))).toMatchObject({ reason: 'symbol', path: '' });
  });

  it('escapes "~" and "/" in paths as JSON pointers do', () => {
    expect(failureOf(serializeValue({ 'a/b': { '~c': Symbol() } }))).toMatchObject({ path: '/a~1b/~0c' });
  });

  it('names Map and Set positions by insertion index, 0 for a key and 1 for a value', () => {
    const map = new Map<unknown, unknown>([
      ['ok', 1],
      ['bad', { f: () => 0 }],
    ]);
    expect(failureOf(serializeValue({ m: map }))).toMatchObject({ reason: 'function', path: '/m/1/1/f' });
    expect(failureOf(serializeValue(new Map([[Symbol(), 1]])))).toMatchObject({
      reason: 'symbol',
      path: '/0/0',
    });
    expect(failureOf(serializeValue(new Set([1, 2, () => 3])))).toMatchObject({ path: '/2' });
  });

  it('fails on a direct circular reference', () => {
    const value: Record<string, unknown> = { a: 1 };
    value.self = value;
    expect(failureOf(serializeValue(value))).toMatchObject({ reason: 'circular', path: '/self' });
    const list: unknown[] = [1];
    list.push(list);
    expect(failureOf(serializeValue(list))).toMatchObject({ reason: 'circular', path: '/1' });
  });

  it('fails on a deep circular reference', () => {
    const root: Record<string, unknown> = {};
    let node: Record<string, unknown> = root;
    for (let i = 0; i < 100; i++) {
      const next: Record<string, unknown> = {};
      node.n = next;
      node = next;
    }
    node.back = [root];
    const outcome = failureOf(serializeValue(root));
    expect(outcome.reason).toBe('circular');
    expect(outcome.path).toBe(`${'/n'.repeat(100)}/back/0`);
  });

  it('fails on a circular reference to an ancestor far from the top', () => {
    const chain: Record<string, unknown>[] = [{}];
    for (let i = 1; i <= 100; i++) {
      const next: Record<string, unknown> = {};
      (chain[i - 1] as Record<string, unknown>).n = next;
      chain.push(next);
    }
    (chain[100] as Record<string, unknown>).back = chain[60];
    expect(failureOf(serializeValue(chain[0]))).toMatchObject({
      reason: 'circular',
      path: `${'/n'.repeat(100)}/back`,
    });
  });

  it('fails on a circular reference through a Map or a Set', () => {
    const map = new Map<string, unknown>();
    map.set('me', { map });
    expect(failureOf(serializeValue(map))).toMatchObject({ reason: 'circular', path: '/0/1/map' });
    const keyed = new Map<unknown, unknown>();
    keyed.set(keyed, 1);
    expect(failureOf(serializeValue(keyed))).toMatchObject({ reason: 'circular', path: '/0/0' });
    const set = new Set<unknown>();
    set.add([set]);
    expect(failureOf(serializeValue(set))).toMatchObject({ reason: 'circular', path: '/0/0' });
  });

  it('fails when toJSON throws', () => {
    const value = {
      a: {
        toJSON() {
          throw new Error('nope');
        },
      },
    };
    expect(failureOf(serializeValue(value))).toEqual({
      reason: 'throwing-toJSON',
      path: '/a',
      message: 'Cannot serialize the value at /a: toJSON threw: Error: nope',
    });
  });

  it('fails when a getter throws', () => {
    const value = {
      ok: 1,
      list: [
        {
          get boom(): number {
            throw new RangeError('getter');
          },
        },
      ],
    };
    expect(failureOf(serializeValue(value))).toMatchObject({
      reason: 'throwing-getter',
      path: '/list/0/boom',
      message: 'Cannot serialize the value at /list/0/boom: reading the property threw: RangeError: getter',
    });
  });

  it('fails, without throwing, on Proxies whose traps throw', () => {
    const throwingKeys = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('ownKeys');
        },
      },
    );
    expect(failureOf(serializeValue({ p: throwingKeys }))).toMatchObject({
      reason: 'throwing-getter',
      path: '/p',
    });
    const throwingGet = new Proxy(
      { a: 1 },
      {
        get() {
          throw new Error('get');
        },
      },
    );
    expect(failureOf(serializeValue([throwingGet]))).toMatchObject({ reason: 'throwing-getter', path: '/0' });
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(failureOf(serializeValue(revocable.proxy))).toMatchObject({ reason: 'throwing-getter', path: '' });
  });

  it('does not throw when the thrown value is itself hostile', () => {
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('again');
        },
      },
    );
    const value = {
      get a(): number {
        throw hostile;
      },
    };
    expect(failureOf(serializeValue(value))).toMatchObject({ reason: 'throwing-getter', path: '/a' });
  });

  it('fails with too-deep on 100,000 nested arrays, without overflowing the stack', () => {
    const outcome = failureOf(serializeValue(nestedArrays(100_000)));
    expect(outcome.reason).toBe('too-deep');
    expect(outcome.path).toBe('/0'.repeat(256));
  });

  it('handles 100,000 nested arrays when maxDepth allows it (no recursion)', () => {
    const text = textOf(serializeValue(nestedArrays(100_000), { maxDepth: 200_000 }));
    expect(text.length).toBe(200_002);
    expect(text.startsWith('[[[')).toBe(true);
  });

  it('counts every container towards maxDepth', () => {
    expect(textOf(serializeValue([[1]], { maxDepth: 2 }))).toBe('[[1]]');
    expect(failureOf(serializeValue([[[1]]], { maxDepth: 2 }))).toMatchObject({
      reason: 'too-deep',
      path: '/0/0',
    });
    expect(failureOf(serializeValue({ a: new Map() }, { maxDepth: 1 }))).toMatchObject({ path: '/a' });
    expect(failureOf(serializeValue([new Uint8Array(1)], { maxDepth: 1 }))).toMatchObject({
      reason: 'too-deep',
    });
    expect(failureOf(serializeValue([new Error('e')], { maxDepth: 1 }))).toMatchObject({
      reason: 'too-deep',
    });
    expect(textOf(serializeValue('scalar', { maxDepth: 0 }))).toBe('"scalar"');
    expect(failureOf(serializeValue({}, { maxDepth: 0 }))).toMatchObject({ reason: 'too-deep', path: '' });
  });

  it('defaults maxDepth to 256', () => {
    expect(serializeValue(nestedArrays(255)).ok).toBe(true);
    expect(failureOf(serializeValue(nestedArrays(256))).reason).toBe('too-deep');
  });

  it('never throws for arbitrary values, and its text is always valid JSON (property)', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withNullPrototype: true,
      withObjectString: true,
      withSet: true,
      withSparseArray: true,
      withTypedArray: true,
      withUnicodeString: true,
    });
    fc.assert(
      fc.property(anything, (value) => {
        const outcome = serializeValue(value);
        if (outcome.ok) expect(() => JSON.parse(outcome.text)).not.toThrow();
        else expect(typeof outcome.path).toBe('string');
        expect(() => JSON.parse(canonicalJson(value))).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('can be called again from inside a toJSON', () => {
    const inner = { toJSON: () => textOf(serializeValue({ b: 1, a: 2 })) };
    expect(textOf(serializeValue({ inner }))).toBe('{"inner":"{\\"a\\":2,\\"b\\":1}"}');
  });
});

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
