import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { materializeDocument, reorderKeys } from './hostile-state.js';

const TEXT = JSON.stringify({ a: 1, b: [1, { c: 2, d: 3 }], e: { f: 'g', h: null } });

describe('hostile saved documents', () => {
  it('reorders every key (the same data) and keeps arrays in order', () => {
    const orders = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const reordered = reorderKeys(JSON.parse(TEXT), seed);
      expect(isDeepStrictEqual(reordered, JSON.parse(TEXT))).toBe(true);
      orders.add(JSON.stringify(reordered));
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  it('gives no JSON text for what JSON cannot carry, and a fresh value per call', () => {
    const huge = materializeDocument(TEXT, [{ kind: 'huge-length', at: 0 }]);
    expect(huge.text).toBeUndefined();
    expect((huge.value as { b: unknown[] }).b.length).toBe(2 ** 32 - 1);
    const getter = materializeDocument(TEXT, [{ kind: 'throwing-getter', at: 1 }]);
    expect(getter.text).toBeUndefined();
    const first = materializeDocument(TEXT, [{ kind: 'delete', at: 1 }]);
    expect(first.text).toBe(materializeDocument(TEXT, [{ kind: 'delete', at: 1 }]).text);
    expect(first.value).not.toBe(materializeDocument(TEXT, [{ kind: 'delete', at: 1 }]).value);
  });

  it('applies a mutation after one that made the document unreadable, without throwing', () => {
    const mutated = materializeDocument(TEXT, [
      { kind: 'proxy', at: 0, trap: 'all' },
      { kind: 'set', at: 3, value: { kind: 'circular' } },
      { kind: 'hole', at: 0 },
    ]);
    expect(mutated.text).toBeUndefined();
  });
});
