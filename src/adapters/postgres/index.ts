// toolwarden/postgres: the store over PostgreSQL (12 or later), through node-postgres (`pg@8`, an optional peer
// dependency: install it beside toolwarden). The store port's types and StoreError are in the root entry.
export type {
  PostgresStorePool,
  PostgresStorePoolClient,
  PostgresStoreResult,
} from './postgres-pool.js';
export {
  createPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
  type PostgresStoreTarget,
} from './postgres-store.js';
