import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresSchemas } from '../../adapters/postgres/__fixtures__/postgres-schemas.js';
import { SHARED_POSTGRES_URL } from '../../adapters/postgres/__fixtures__/shared-postgres.js';
import { redisPrefixes } from '../../adapters/redis/__fixtures__/redis-prefixes.js';
import { SHARED_REDIS_URL } from '../../adapters/redis/__fixtures__/shared-redis.js';
import type { Store } from '../../core/store.js';
import { MemoryStore } from '../memory-store.js';
import { openStoreSpec, type StoreSpec } from './open-store-spec.js';

/**
 * The stores a test file runs the same tests over: memory (no spec), a SQLite file of its own per test,
 * the shared Redis under a key prefix of its own, and the shared PostgreSQL under a schema of its own. `open` opens one (kept for `cleanup`, which closes
 * them all and deletes the files and the keys; call it in `afterAll`).
 */
export function storesUnderTest(name: string): {
  readonly stores: readonly (readonly [string, () => StoreSpec | undefined])[];
  open(spec: StoreSpec | undefined): Promise<Store>;
  cleanup(): Promise<void>;
} {
  const folder = mkdtempSync(join(tmpdir(), `tw-${name}-`));
  const prefixes = redisPrefixes();
  const schemas = postgresSchemas();
  const opened: Store[] = [];
  let files = 0;
  return {
    stores: [
      ['memory', () => undefined],
      ['SQLite', () => ({ kind: 'sqlite', path: join(folder, `${name}-${++files}.db`) })],
      ['Redis', () => ({ kind: 'redis', url: SHARED_REDIS_URL, keyPrefix: prefixes.next() })],
      ['PostgreSQL', () => ({ kind: 'postgres', url: SHARED_POSTGRES_URL, schema: schemas.next() })],
    ],
    async open(spec) {
      const store = spec === undefined ? new MemoryStore() : await openStoreSpec(spec);
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const store of opened) await store.close?.();
      rmSync(folder, { recursive: true, force: true });
      await prefixes.cleanup();
      await schemas.cleanup();
    },
  };
}
