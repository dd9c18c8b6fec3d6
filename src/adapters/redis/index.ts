// toolwarden/redis: the store over Redis (7.0 or later, or Valkey), through node-redis (`redis`, an optional
// peer dependency: install it beside toolwarden). The store port's types and StoreError are in the root entry.
export {
  createRedisStore,
  type RedisStore,
  type RedisStoreClient,
  type RedisStoreCommands,
  type RedisStoreOptions,
  type RedisStoreTarget,
} from './redis-store.js';
