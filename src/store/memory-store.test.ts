import { describe, expect, it } from 'vitest';
import { describeStoreContract } from './__fixtures__/store-contract.js';
import { MemoryStore } from './memory-store.js';

describeStoreContract('memory', async () => ({ store: new MemoryStore(), cleanup: async () => {} }), {
  durable: false,
});

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
});
