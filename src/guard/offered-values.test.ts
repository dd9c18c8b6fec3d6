import { describe, expect, it } from 'vitest';
import { hash53 } from './fingerprint.js';
import { MAX_OFFERED_VALUES, offeredValues } from './offered-values.js';

describe('offeredValues', () => {
  it('gives the handles an answer offers: quoted values, not keys, not prose', () => {
    const offers = offeredValues(
      '{"items":["a-1"],"next": "c2", "note":"see the next page", "lease":"ls_9k"}',
    );
    expect(offers).toEqual(['a-1', 'c2', 'ls_9k'].map(hash53));
    expect(offeredValues('{"page":2}')).toEqual([]);
    expect(offeredValues('no quotes at all')).toEqual([]);
  });

  it('keeps the first and the last of a long list (a cursor comes last), and survives hostile text', () => {
    const ids = Array.from({ length: 100 }, (_, i) => `id-${i}`);
    const offers = offeredValues(JSON.stringify({ ids, cursor: 'zz9' }));
    expect(offers).toHaveLength(MAX_OFFERED_VALUES);
    expect(offers[0]).toBe(hash53('id-0'));
    expect(offers.at(-1)).toBe(hash53('zz9'));
    expect(offeredValues(`"${'\\'.repeat(100_001)}`)).toEqual([]);
    expect(offeredValues('"x"'.repeat(70_000))).toHaveLength(0);
    expect(offeredValues('"ab"'.repeat(70_000)).length).toBeLessThanOrEqual(MAX_OFFERED_VALUES);
  });
});
