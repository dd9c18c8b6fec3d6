import type BetterSqlite3 from 'better-sqlite3';
import { StoreError } from '../../core/errors/store-error.js';
import { sqliteFailure } from './sqlite-failure.js';

/** An open better-sqlite3 connection. */
export type SqliteDatabase = BetterSqlite3.Database;

/**
 * better-sqlite3, loaded when a store opens a file. The driver is an optional peer dependency: importing
 * `toolwarden/sqlite` works without it, and opening a store says how to install it.
 */
export async function loadSqliteDriver(): Promise<typeof BetterSqlite3> {
  try {
    return (await import('better-sqlite3')).default;
  } catch (error) {
    if ((error as { code?: unknown } | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') {
      throw sqliteFailure('open', error);
    }
    throw new StoreError({
      reason: 'unavailable',
      operation: 'open',
      message: 'the SQLite driver better-sqlite3 is not installed: npm install better-sqlite3@12',
      cause: error,
    });
  }
}

/**
 * Opens (creating it when absent) the database file at `path` in WAL mode, so readers never wait for a
 * writer, with `synchronous = NORMAL` (a commit survives a crash of the process; a power loss may lose the
 * last commits, never the file) and a busy timeout for writers of other processes.
 */
export async function openSqliteDatabase(path: string, busyTimeoutMs: number): Promise<SqliteDatabase> {
  const Database = await loadSqliteDriver();
  let database: SqliteDatabase | undefined;
  try {
    database = new Database(path, { timeout: busyTimeoutMs });
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    return database;
  } catch (error) {
    database?.close();
    // The driver loads its native addon on the first open: it is missing when its install script did not run.
    if (error instanceof Error && error.message.includes('Could not locate the bindings file')) {
      throw new StoreError({
        reason: 'unavailable',
        operation: 'open',
        message:
          "better-sqlite3's native addon is not built (its install script did not run): allow it (npm approve-scripts better-sqlite3) and reinstall",
        cause: error,
      });
    }
    throw sqliteFailure('open', error);
  }
}
