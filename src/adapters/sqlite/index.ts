export type { SqliteDatabase } from './open-sqlite-database.js';
export { createSqliteStore, type SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
