export type { SqliteDatabase } from './open-sqlite-database.js';
export { createSqliteAuditSink, type SqliteAuditSinkOptions } from './sqlite-audit-sink.js';
export { createSqliteStore, type SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
