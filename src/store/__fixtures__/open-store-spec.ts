import { createPostgresStore } from '../../adapters/postgres/index.js';
import { createRedisStore } from '../../adapters/redis/index.js';
import { createSqliteStore } from '../../adapters/sqlite/index.js';
import type { Store } from '../../core/store.js';

/** A durable store another process can open too, described as JSON (what a test hands a child process). */
export type StoreSpec =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'redis'; readonly url: string; readonly keyPrefix: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string };

export async function openStoreSpec(spec: StoreSpec): Promise<Store> {
  switch (spec.kind) {
    case 'sqlite':
      return createSqliteStore({ path: spec.path });
    case 'redis':
      return createRedisStore({ url: spec.url }, { keyPrefix: spec.keyPrefix });
    case 'postgres':
      return createPostgresStore({ url: spec.url }, { schema: spec.schema });
    default: {
      const unreachable: never = spec;
      throw new TypeError(`unknown store kind ${String(unreachable)}`);
    }
  }
}
