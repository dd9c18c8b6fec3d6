import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureOf, nestedArrays, textOf } from './__fixtures__/serialize-helpers.js';
import { serializeValue } from './serialize-value.js';

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
      }),
      { numRuns: 300 },
    );
  });

  it('can be called again from inside a toJSON', () => {
    const inner = { toJSON: () => textOf(serializeValue({ b: 1, a: 2 })) };
    expect(textOf(serializeValue({ inner }))).toBe('{"inner":"{\\"a\\":2,\\"b\\":1}"}');
  });
});
