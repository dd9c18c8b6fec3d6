import { describe, expect, it } from 'vitest';
import { describeStoreContract } from './__fixtures__/store-contract.js';
import { MemoryStore } from './memory-store.js';

// Its clock runs with the wall clock (deadlines in the contract are Date.now()-based), plus the time the
// suite lets pass for TTLs without waiting for it.
describeStoreContract(
  'memory',
  async () => {
    let skipped = 0;
    return {
      store: new MemoryStore({ now: () => Date.now() + skipped }),
      cleanup: async () => {},
      elapse: async (ms) => {
        skipped += ms;
      },
    };
  },
  { durable: false },
);

describe('MemoryStore', () => {
  it('expires by the clock it is given', async () => {
    let now = 1_000;
    const store = new MemoryStore({ now: () => now });
    await store.set('k', 'v', { ttlMs: 10 });
    now += 9;
    expect((await store.get('k'))?.value).toBe('v');
    now += 1;
    expect(await store.get('k')).toBeUndefined();
  });

  it('refuses a write or a reservation at or after its deadline by its own clock, and takes one before it', async () => {
    let now = 1_000;
    const store = new MemoryStore({ now: () => now });
    const counter = { key: 'count', limit: 5 };
    await expect(store.set('k', 'v', { deadline: 1_000 })).rejects.toMatchObject({
      name: 'StoreError',
      reason: 'unavailable',
      operation: 'set',
    });
    await expect(store.reserve([counter], { deadline: 999 })).rejects.toMatchObject({ operation: 'reserve' });
    expect(await store.get('k')).toBeUndefined();
    expect(await store.set('k', 'v', { deadline: 1_001, reserve: { counters: [counter] } })).toEqual({
      ok: true,
      version: 1,
    });
    now = 5_000;
    expect(await store.reserve([counter], { deadline: 5_001 })).toEqual({ ok: true, counts: [2] });
  });

  it('drops expired entries and counters it is never asked for again, so a long-running process stays bounded', async () => {
    let now = 0;
    const store = new MemoryStore({ now: () => now });
    for (let i = 0; i < 500; i++) {
      await store.set(`gone-${i}`, i, { ttlMs: 10 });
      await store.reserve([{ key: `gone-count-${i}`, limit: 1 }], { ttlMs: 10 });
    }
    await store.set('kept', 'no ttl');
    expect(store.size).toBe(1001);
    now = 11;
    for (let i = 0; i < 1000; i++) await store.set('kept', i);
    expect(store.size).toBe(1);
  });
});
