import { DEFAULT_SQLITE_BUSY_TIMEOUT_MS, DEFAULT_SQLITE_SWEEP_EVERY_WRITES } from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { StoreError } from '../../core/errors/store-error.js';
import type {
  ReserveResult,
  Store,
  StoreCounter,
  StoreEntry,
  StoreReserveOptions,
  StoreSetOptions,
  StoreSetResult,
} from '../../core/store.js';
import {
  checkAlso,
  checkCounters,
  checkKey,
  checkReserve,
  checkTtl,
  checkVersion,
  decodeStoreValue,
  encodeStoreValue,
} from '../../core/store-value.js';
import { checkFunction, checkNumberOption, describeOptionValue } from '../../options/check-option.js';
import { checkDeadline, refuseLateWrite } from '../../store/store-deadline.js';
import { openSqliteDatabase, type SqliteDatabase } from './open-sqlite-database.js';
import { sqliteFailure } from './sqlite-failure.js';
import { prepareSqliteSchema } from './sqlite-schema.js';

/**
 * Where the store keeps its data: a file path (the store opens it, and closes it on `close()`), or a
 * better-sqlite3 database the application opened (the store adds its tables and leaves the connection's
 * settings and its closing to the application).
 */
export type SqliteStoreOptions =
  | {
      /** The database file, created when absent (its folder must exist). */
      readonly path: string;
      /** How long a write waits for another process's transaction on the file (default 5000 ms). */
      readonly busyTimeoutMs?: number;
      /** Clock for expiry, in milliseconds (default `Date.now`). */
      readonly now?: () => number;
      readonly database?: never;
    }
  | {
      /** An open better-sqlite3 database (12 or later); `close()` does not close it. */
      readonly database: SqliteDatabase;
      readonly now?: () => number;
      readonly path?: never;
      readonly busyTimeoutMs?: never;
    };

interface EntryRow {
  readonly value: unknown;
  readonly version: unknown;
}

/**
 * The store on one SQLite file: durable, and shared by the processes of one machine. Every write is one
 * `BEGIN IMMEDIATE` transaction, so compare-and-set and reservations are atomic across processes; a
 * write that waits longer than the busy timeout fails with `StoreError` (`unavailable`). better-sqlite3
 * is synchronous: a call blocks the event loop while it runs (or waits for the file).
 *
 * Expired rows are never read: every read filters on the clock. They are deleted when their key is
 * written again, when the store opens, and every 1000 writes (`DEFAULT_SQLITE_SWEEP_EVERY_WRITES`).
 */
export class SqliteStore implements Store {
  readonly #database: SqliteDatabase;
  readonly #owned: boolean;
  readonly #now: () => number;
  #closed = false;
  #writes = 0;
  readonly #write: (work: (now: number) => unknown) => unknown;
  readonly #sql: ReturnType<typeof prepareStatements>;

  /** Use `createSqliteStore`; this adds toolwarden's tables to an open database. */
  constructor(database: SqliteDatabase, options: { readonly owned: boolean; readonly now: () => number }) {
    this.#database = database;
    this.#owned = options.owned;
    this.#now = options.now;
    prepareSqliteSchema(database);
    this.#sql = prepareStatements(database);
    this.#write = database.transaction((work: (now: number) => unknown) => {
      const now = this.#now();
      const result = work(now);
      this.#writes += 1;
      if (this.#writes >= DEFAULT_SQLITE_SWEEP_EVERY_WRITES) this.#sweep(now);
      return result;
    }).immediate;
    this.#sweep(this.#now());
  }

  /** The entry under `key`; undefined when there is none or it has expired (the `Store` port's `get`). */
  async get(key: string): Promise<StoreEntry | undefined> {
    checkKey(key);
    return this.#run('get', () => {
      const row = this.#sql.entry.get({ key, now: this.#now() });
      return row === undefined ? undefined : entryOf(row, 'get');
    });
  }

  /** Writes `value` under `key`, under the options' conditions (the `Store` port's `set`). */
  async set(key: string, value: unknown, options: StoreSetOptions = {}): Promise<StoreSetResult> {
    checkKey(key);
    checkVersion(options.ifVersion);
    checkTtl(options.ttlMs);
    checkReserve(options.reserve);
    checkAlso(options.also, key);
    checkDeadline(options.deadline);
    const text = encodeStoreValue(value);
    const { ifVersion, ttlMs, reserve, also, deadline } = options;
    const alsoText = also === undefined ? undefined : encodeStoreValue(also.value);
    return this.#transaction('set', (now): StoreSetResult => {
      // By the clock read once the transaction holds the file: a write that waited past it writes nothing.
      refuseLateWrite(deadline, now, 'set');
      const row = this.#sql.entry.get({ key, now });
      const alsoRow = also === undefined ? undefined : this.#sql.entry.get({ key: also.key, now });
      // The value is read only to hand it back: a write without ifVersion replaces even a corrupt one.
      const version = row === undefined ? 0 : versionOf(row, 'set');
      const refused = (blocked: number | undefined): StoreSetResult => ({
        ok: false,
        current: row === undefined ? undefined : entryOf(row, 'set'),
        ...(blocked === undefined ? {} : { blocked }),
        ...(also === undefined
          ? {}
          : { alsoCurrent: alsoRow === undefined ? undefined : entryOf(alsoRow, 'set') }),
      });
      if (ifVersion !== undefined && ifVersion !== version) return refused(undefined);
      if (reserve !== undefined) {
        const reserved = this.#reserveIn(reserve.counters, reserve.ttlMs, now);
        if (!reserved.ok) return refused(reserved.blocked);
      }
      // An expired row under the key is overwritten here: the new entry starts again at version 1.
      this.#sql.putEntry.run({ key, value: text, version: version + 1, expiresAt: expiry(now, ttlMs) });
      if (also !== undefined && alsoText !== undefined) {
        const alsoVersion = alsoRow === undefined ? 0 : versionOf(alsoRow, 'set');
        this.#sql.putEntry.run({
          key: also.key,
          value: alsoText,
          version: alsoVersion + 1,
          expiresAt: expiry(now, also.ttlMs),
        });
      }
      return { ok: true, version: version + 1 };
    });
  }

  /** Removes the entry (with `ifVersion`, only at that version); true when one was removed. */
  async delete(key: string, options: { readonly ifVersion?: number } = {}): Promise<boolean> {
    checkKey(key);
    checkVersion(options.ifVersion);
    const ifVersion = options.ifVersion ?? null;
    return this.#transaction(
      'delete',
      (now) => this.#sql.deleteEntry.run({ key, now, ifVersion }).changes > 0,
    );
  }

  /** Adds 1 to every counter when each stays within its limit, else to none, atomically (the `Store` port's `reserve`). */
  async reserve(
    counters: readonly StoreCounter[],
    options: StoreReserveOptions = {},
  ): Promise<ReserveResult> {
    checkCounters(counters);
    checkTtl(options.ttlMs);
    checkDeadline(options.deadline);
    const { ttlMs, deadline } = options;
    return this.#transaction('reserve', (now) => {
      refuseLateWrite(deadline, now, 'reserve');
      return this.#reserveIn(counters, ttlMs, now);
    });
  }

  /** `reserve`'s work inside a transaction that is already open (its own, or a counted `set`'s). */
  #reserveIn(counters: readonly StoreCounter[], ttlMs: number | undefined, now: number): ReserveResult {
    const live = counters.map((counter) => this.#sql.counter.get({ key: counter.key, now }));
    const counts = live.map((row) => (row === undefined ? 0 : countOf(row, 'reserve')));
    const blocked = counters.findIndex((counter, index) => (counts[index] ?? 0) + 1 > counter.limit);
    if (blocked !== -1) return { ok: false, blocked, counts };
    const expiresAt = ttlMs === undefined ? null : now + ttlMs;
    counters.forEach((counter, index) => {
      // A new (or expired) counter expires after this call's ttlMs; a live one keeps its expiry, and takes
      // this call's only when it has none, as MemoryStore does.
      if (live[index] === undefined) this.#sql.putCounter.run({ key: counter.key, expiresAt });
      else this.#sql.addToCounter.run({ key: counter.key, expiresAt });
    });
    return { ok: true, counts: counts.map((count) => count + 1) };
  }

  /** Takes 1 off each counter (never below 0): a reservation whose call did not run. */
  async release(keys: readonly string[]): Promise<void> {
    for (const key of keys) checkKey(key);
    this.#transaction('release', (now) => {
      for (const key of keys) this.#sql.takeFromCounter.run({ key, now });
    });
  }

  /** Closes the file when the store opened it; a database given to `createSqliteStore` stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#owned) this.#run('close', () => this.#database.close(), true);
  }

  /** One call against the database, with what the driver throws reported as `StoreError`. */
  #run<T>(operation: string, work: () => T, closing = false): T {
    if (this.#closed && !closing) {
      throw new StoreError({ reason: 'unavailable', operation, message: 'the store is closed' });
    }
    try {
      return work();
    } catch (error) {
      throw sqliteFailure(operation, error);
    }
  }

  #transaction<T>(operation: string, work: (now: number) => T): T {
    return this.#run(operation, () => this.#write(work) as T);
  }

  #sweep(now: number): void {
    this.#writes = 0;
    this.#sql.sweepEntries.run(now);
    this.#sql.sweepCounters.run(now);
  }
}

/**
 * A store on the SQLite file at `path` (created when absent), or on an open better-sqlite3 database.
 * Rejects with `InvalidOptionsError` for bad options and `StoreError` (`unavailable`) when the driver is
 * not installed, the file cannot be opened, or it holds toolwarden's tables of a newer version.
 */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const { path, database, busyTimeoutMs } = (options ?? {}) as Record<string, unknown>;
  const now = checkFunction(options?.now, { option: 'now' }) ?? Date.now;
  if (database !== undefined) {
    if (path !== undefined || busyTimeoutMs !== undefined) {
      throw new InvalidOptionsError({
        option: 'database',
        message: 'comes without path and busyTimeoutMs (an open database is configured by whoever opened it)',
      });
    }
    if (typeof (database as Partial<SqliteDatabase> | null)?.transaction !== 'function') {
      throw new InvalidOptionsError({
        option: 'database',
        message: `must be an open better-sqlite3 Database, got ${describeOptionValue(database)}`,
      });
    }
    return opening(() => new SqliteStore(database as SqliteDatabase, { owned: false, now }));
  }
  if (typeof path !== 'string' || path.trim() === '') {
    throw new InvalidOptionsError({
      option: 'path',
      message: `must be the path of the database file, got ${describeOptionValue(path)}`,
    });
  }
  const timeout =
    checkNumberOption(busyTimeoutMs, { option: 'busyTimeoutMs', min: 0, timer: true }) ??
    DEFAULT_SQLITE_BUSY_TIMEOUT_MS;
  const opened = await openSqliteDatabase(path, timeout);
  try {
    return opening(() => new SqliteStore(opened, { owned: true, now }));
  } catch (error) {
    opened.close();
    throw error;
  }
}

function opening(make: () => SqliteStore): SqliteStore {
  try {
    return make();
  } catch (error) {
    throw sqliteFailure('open', error);
  }
}

function expiry(now: number, ttlMs: number | undefined): number | null {
  return ttlMs === undefined ? null : now + ttlMs;
}

/** A row as an entry; a row toolwarden did not write (a value that is not JSON text) is `corrupt`. */
function entryOf(row: EntryRow, operation: string): StoreEntry {
  const version = versionOf(row, operation);
  if (typeof row.value !== 'string') throw corrupt(operation, 'the stored value is not text');
  return { value: decodeStoreValue(row.value, operation), version };
}

function versionOf(row: EntryRow, operation: string): number {
  if (Number.isSafeInteger(row.version) && (row.version as number) >= 1) return row.version as number;
  throw corrupt(operation, 'the stored version is not a whole number of 1 or more');
}

function countOf(row: { readonly count: unknown }, operation: string): number {
  if (Number.isSafeInteger(row.count) && (row.count as number) >= 0) return row.count as number;
  throw corrupt(operation, 'the stored count is not a whole number of 0 or more');
}

function corrupt(operation: string, message: string): StoreError {
  return new StoreError({ reason: 'corrupt', operation, message });
}

function prepareStatements(database: SqliteDatabase) {
  const live = '(expires_at IS NULL OR expires_at > @now)';
  return {
    entry: database.prepare<{ key: string; now: number }, EntryRow>(
      `SELECT value, version FROM toolwarden_entries WHERE key = @key AND ${live}`,
    ),
    putEntry: database.prepare<{ key: string; value: string; version: number; expiresAt: number | null }>(
      `INSERT INTO toolwarden_entries (key, value, version, expires_at) VALUES (@key, @value, @version, @expiresAt)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = excluded.version, expires_at = excluded.expires_at`,
    ),
    deleteEntry: database.prepare<{ key: string; now: number; ifVersion: number | null }>(
      `DELETE FROM toolwarden_entries WHERE key = @key AND ${live} AND (@ifVersion IS NULL OR version = @ifVersion)`,
    ),
    counter: database.prepare<{ key: string; now: number }, { count: unknown }>(
      `SELECT count FROM toolwarden_counters WHERE key = @key AND ${live}`,
    ),
    putCounter: database.prepare<{ key: string; expiresAt: number | null }>(
      `INSERT INTO toolwarden_counters (key, count, expires_at) VALUES (@key, 1, @expiresAt)
       ON CONFLICT (key) DO UPDATE SET count = 1, expires_at = excluded.expires_at`,
    ),
    addToCounter: database.prepare<{ key: string; expiresAt: number | null }>(
      'UPDATE toolwarden_counters SET count = count + 1, expires_at = COALESCE(expires_at, @expiresAt) WHERE key = @key',
    ),
    takeFromCounter: database.prepare<{ key: string; now: number }>(
      `UPDATE toolwarden_counters SET count = count - 1 WHERE key = @key AND count > 0 AND ${live}`,
    ),
    sweepEntries: database.prepare<[number]>('DELETE FROM toolwarden_entries WHERE expires_at <= ?'),
    sweepCounters: database.prepare<[number]>('DELETE FROM toolwarden_counters WHERE expires_at <= ?'),
  };
}
