import { StoreError } from '../../core/errors/store-error.js';
import type { SqliteDatabase } from './open-sqlite-database.js';

/**
 * The version of the tables below. A change to them adds a step from the previous version in
 * `prepareSqliteSchema` and raises this number; a file of a higher version (written by a newer toolwarden)
 * is refused, never read or changed.
 *
 * The version is a row of toolwarden's own table, not the file's `user_version`: the store accepts an
 * application's open database, whose `user_version` may count that application's own migrations.
 */
export const SQLITE_SCHEMA_VERSION = 1;

/**
 * Values and counters, each with when it expires (the store's clock, in milliseconds; NULL: never). The
 * partial indexes keep the sweep of expired rows proportional to what it deletes.
 */
const TABLES = `
  CREATE TABLE toolwarden_entries (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL,
    version INTEGER NOT NULL,
    expires_at INTEGER
  );
  CREATE INDEX toolwarden_entries_expiry ON toolwarden_entries (expires_at) WHERE expires_at IS NOT NULL;
  CREATE TABLE toolwarden_counters (
    key TEXT PRIMARY KEY NOT NULL,
    count INTEGER NOT NULL,
    expires_at INTEGER
  );
  CREATE INDEX toolwarden_counters_expiry ON toolwarden_counters (expires_at) WHERE expires_at IS NOT NULL;
`;

/**
 * Creates toolwarden's tables when the database has none, or checks that it has them at this version.
 * One immediate transaction, so two processes opening a new file at once create the tables once.
 */
export function prepareSqliteSchema(database: SqliteDatabase): void {
  database
    .transaction(() => {
      database.exec(
        'CREATE TABLE IF NOT EXISTS toolwarden_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)',
      );
      const row = database.prepare<[], { version: unknown }>('SELECT version FROM toolwarden_schema').get();
      if (row === undefined) {
        database.exec(TABLES);
        database
          .prepare('INSERT INTO toolwarden_schema (id, version) VALUES (1, ?)')
          .run(SQLITE_SCHEMA_VERSION);
        return;
      }
      if (row.version === SQLITE_SCHEMA_VERSION) return;
      throw new StoreError({
        reason: 'unavailable',
        operation: 'open',
        message: `the database holds toolwarden's tables at schema version ${String(row.version)}, and this toolwarden knows version ${SQLITE_SCHEMA_VERSION} at most: it was written by a newer toolwarden (upgrade this one), and is left as it is`,
      });
    })
    .immediate();
}
