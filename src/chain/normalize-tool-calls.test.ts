import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeToolCalls } from './normalize-tool-calls.js';

/** Ids `gen_1`, `gen_2`, ...: predictable, to check what was replaced. */
function counter(prefix = 'gen'): () => string {
  let next = 0;
  return () => `${prefix}_${++next}`;
}

const throwingProxy = (target: object = {}) =>
  new Proxy(target, {
    get() {
      throw new Error('get trap');
    },
    has() {
      throw new Error('has trap');
    },
    ownKeys() {
      throw new Error('ownKeys trap');
    },
    getPrototypeOf() {
      throw new Error('getPrototypeOf trap');
    },
  });

describe('normalizeToolCalls', () => {
  it('copies well-formed calls field by field', () => {
    const raw = [{ id: 'a', name: 'echo', arguments: '{"x":1}', extra: true }];
    const calls = normalizeToolCalls(raw, counter());
    expect(calls).toEqual([{ id: 'a', name: 'echo', arguments: '{"x":1}' }]);
    expect(calls[0]).not.toBe(raw[0]);
  });

  it('replaces missing, empty, non-string and duplicate ids, never with an id the model used later', () => {
    const raw = [
      { name: 'a', arguments: '' },
      { id: 'gen_1', name: 'b', arguments: '' },
      { id: 'x', name: 'c', arguments: '' },
      { id: 'x', name: 'd', arguments: '' },
      { id: '', name: 'e', arguments: '' },
      { id: 7, name: 'f', arguments: '' },
    ];
    const ids = normalizeToolCalls(raw, counter()).map((call) => call.id);
    expect(ids).toEqual(['gen_2', 'gen_1', 'x', 'gen_3', 'gen_4', 'gen_5']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stays unique even when the id source keeps answering the same id', () => {
    const calls = normalizeToolCalls([{ name: 'a' }, { name: 'b' }, { id: 'same', name: 'c' }], () => 'same');
    expect(new Set(calls.map((call) => call.id)).size).toBe(3);
  });

  it('coerces names and arguments to text without throwing', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const nullProto = Object.create(null) as object;
    const raw = [
      { id: '1', name: 42, arguments: { a: 1 } },
      { id: '2', name: null, arguments: { big: 10n } },
      { id: '3', name: nullProto, arguments: circular },
      { id: '4', name: Symbol('s'), arguments: 5 },
      { id: '5', name: 'echo', arguments: null },
      {
        id: '6',
        name: 'echo',
        arguments: {
          toJSON() {
            throw new Error('toJSON');
          },
        },
      },
      { id: '7', name: 'echo', arguments: () => 1 },
    ];
    const calls = normalizeToolCalls(raw, counter());
    expect(calls.map((call) => call.name)).toEqual(['42', '', '', '', 'echo', 'echo', 'echo']);
    const args = calls.map((call) => call.arguments);
    expect(args[0]).toBe('{"a":1}');
    expect(args[3]).toBe('5');
    expect(args[4]).toBe('');
    for (const index of [1, 2, 5, 6]) expect(() => JSON.parse(args[index] as string)).toThrow();
  });

  it('reads a Proxy with throwing traps, as the list or as a call, as absent', () => {
    expect(normalizeToolCalls(throwingProxy([]), counter())).toEqual([]);
    const calls = normalizeToolCalls([throwingProxy(), { id: 'ok', name: 'echo', arguments: '' }], counter());
    expect(calls).toEqual([
      { id: 'gen_1', name: '', arguments: '' },
      { id: 'ok', name: 'echo', arguments: '' },
    ]);
    const getters = {
      get id(): string {
        throw new Error('id');
      },
      get name(): string {
        throw new Error('name');
      },
      get arguments(): string {
        throw new Error('arguments');
      },
    };
    expect(normalizeToolCalls([getters], counter())).toEqual([{ id: 'gen_1', name: '', arguments: '' }]);
    const revocable = Proxy.revocable([], {});
    revocable.revoke();
    expect(normalizeToolCalls(revocable.proxy, counter())).toEqual([]);
  });

  it('reads anything that is not an array as no calls', () => {
    for (const raw of [undefined, null, 'calls', 42, { 0: { name: 'a' }, length: 1 }]) {
      expect(normalizeToolCalls(raw, counter())).toEqual([]);
    }
  });

  it('answers anything with unique string fields, one per item, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.anything({ withBigInt: true, withNullPrototype: true })), (raw) => {
        const calls = normalizeToolCalls(raw, counter());
        expect(calls).toHaveLength(raw.length);
        for (const call of calls) {
          expect(typeof call.id).toBe('string');
          expect(typeof call.name).toBe('string');
          expect(typeof call.arguments).toBe('string');
        }
        expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
      }),
      { numRuns: 300 },
    );
  });
});
