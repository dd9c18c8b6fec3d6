import type { Store } from '../core/store.js';
import { MemoryStore } from '../store/memory-store.js';

/**
 * A store with some of its methods replaced (an outage, a hang, a defect), the others a `MemoryStore`'s:
 * `storeWith({ get: () => Promise.reject(new StoreError(...)) })`. `base` is the store behind it.
 */
export function storeWith(overrides: Partial<Store>, base: Store = new MemoryStore()): Store {
  return {
    get: overrides.get ?? ((key) => base.get(key)),
    set: overrides.set ?? ((key, value, options) => base.set(key, value, options)),
    delete: overrides.delete ?? ((key, options) => base.delete(key, options)),
    reserve: overrides.reserve ?? ((counters, options) => base.reserve(counters, options)),
    release: overrides.release ?? ((keys) => base.release(keys)),
  };
}
