import { createHash } from 'node:crypto';
import { withTimeout } from '../../chain/with-timeout.js';
import {
  DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS,
  DEFAULT_POSTGRES_MAX_CONNECTIONS,
  DEFAULT_POSTGRES_SWEEP_EVERY_WRITES,
} from '../../core/defaults.js';
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
import { checkNumberOption, describeOptionValue } from '../../options/check-option.js';
import { checkDeadline, earlierDeadline, lateWriteError, storeDeadline } from '../../store/store-deadline.js';
import { postgresFailure } from './postgres-failure.js';
import { openPostgresPool, type PostgresStorePool } from './postgres-pool.js';
import { POSTGRES_SCHEMA_NAME, preparePostgresSchema } from './postgres-schema.js';

/** Where the store's data lives: a URL (the store makes, and ends, its own pool) or a pool of yours. */
export type PostgresStoreTarget = { readonly url: string } | { readonly pool: PostgresStorePool };

/** Which schema holds the store's tables and how long it waits for the database. */
export interface PostgresStoreOptions {
  /**
   * The schema of toolwarden's tables and functions, created on open when absent (default `public`): a
   * plain lower-case identifier, so one database can hold several applications' stores (or a test's own).
   */
  readonly schema?: string;
  /**
   * Every operation settles within this many milliseconds, the wait for a free connection included
   * (default `DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS`).
   */
  readonly commandTimeoutMs?: number;
  /** With `url`: the most connections the store's own pool opens (default `DEFAULT_POSTGRES_MAX_CONNECTIONS`). */
  readonly maxConnections?: number;
}

/** The row `toolwarden_set` hands back (bigint columns come as text from node-postgres). */
interface SetRow {
  readonly o_status: 'written' | 'conflict' | 'blocked' | 'late';
  readonly o_version: string | null;
  readonly o_value: string | null;
  readonly o_blocked: number | null;
  readonly o_also_version: string | null;
  readonly o_also_value: string | null;
}

interface ReserveRow {
  readonly o_status: 'reserved' | 'blocked' | 'late';
  readonly o_blocked: number | null;
  readonly o_counts: readonly string[] | null;
}

/**
 * The store on PostgreSQL (`toolwarden/postgres`, 12 or later): durable, and shared by every process
 * that reaches the database. Each operation is one statement, one round trip: a plain `SELECT` for a read,
 * a function of toolwarden's (PL/pgSQL, created with the tables) for each write, which takes advisory
 * locks on the keys it touches and reads and writes under them, so compare-and-set (even on a key that
 * has no row yet) and reservations of several counters are atomic across processes. The connections must
 * run at PostgreSQL's default isolation, READ COMMITTED.
 *
 * Expiry is by the database's clock, as deadlines are (`clock_timestamp()`, read once the locks are
 * held): expired rows are never read, and are deleted every 1000 writes of a store
 * (`DEFAULT_POSTGRES_SWEEP_EVERY_WRITES`). When the database cannot be reached or does not answer within
 * `commandTimeoutMs`, a call rejects with `StoreError` (`unavailable`, the driver's error as its `cause`);
 * the store works again once the database is back. A `set` or `reserve` given up on does nothing should it
 * still reach the database (its deadline, as with Redis); a `delete` or `release` may still be applied.
 *
 * Made by `createPostgresStore`.
 */
export class PostgresStore implements Store {
  readonly #pool: PostgresStorePool;
  readonly #schema: string;
  /**
   * Starts the names of the store's prepared statements: a digest of the schema, not the schema, since the
   * server keeps a statement's name to 63 bytes and two long names would meet.
   */
  readonly #statements: string;
  readonly #timeoutMs: number;
  readonly #endPool: (() => Promise<void>) | undefined;
  #closed = false;
  #writes = 0;
  #sweeping: Promise<void> | undefined;

  /** Use `createPostgresStore`; this expects the schema prepared. */
  constructor(
    pool: PostgresStorePool,
    options: { readonly schema: string; readonly timeoutMs: number },
    endPool?: () => Promise<void>,
  ) {
    this.#pool = pool;
    this.#schema = options.schema;
    this.#statements = `tw:${createHash('sha256').update(options.schema).digest('hex').slice(0, 16)}:`;
    this.#timeoutMs = options.timeoutMs;
    this.#endPool = endPool;
  }

  /** The entry under `key`; undefined when there is none or it has expired (the `Store` port's `get`). */
  async get(key: string): Promise<StoreEntry | undefined> {
    checkTextKey(key);
    const s = `"${this.#schema}"`;
    const rows = await this.#query<{ value: string; version: string }>(
      'get',
      `SELECT value, version FROM ${s}.toolwarden_entries
       WHERE key = $1 AND (expires_at IS NULL OR expires_at > ${s}.toolwarden_now())`,
      [key],
    );
    const row = rows[0];
    return row === undefined ? undefined : entryOf(row.version, row.value, 'get');
  }

  /** Writes `value` under `key`, under the options' conditions (the `Store` port's `set`). */
  async set(key: string, value: unknown, options: StoreSetOptions = {}): Promise<StoreSetResult> {
    checkKey(key);
    checkVersion(options.ifVersion);
    checkTtl(options.ttlMs);
    checkReserve(options.reserve);
    checkAlso(options.also, key);
    checkDeadline(options.deadline);
    const { also, reserve } = options;
    for (const each of [key, also?.key, ...(reserve?.counters ?? []).map((counter) => counter.key)]) {
      if (each !== undefined) checkTextKey(each);
    }
    const deadline = this.#deadline(options.deadline);
    const text = encodeStoreValue(value);
    const alsoText = also === undefined ? null : encodeStoreValue(also.value);
    const [row] = await this.#query<SetRow>(
      'set',
      `SELECT * FROM "${this.#schema}".toolwarden_set($1::text, $2::text, $3::bigint, $4::bigint,
        $5::text[], $6::bigint[], $7::bigint, $8::text, $9::text, $10::bigint, $11::bigint)`,
      [
        key,
        text,
        options.ifVersion ?? null,
        options.ttlMs ?? null,
        reserve?.counters.map((counter) => counter.key) ?? null,
        reserve?.counters.map((counter) => counter.limit) ?? null,
        reserve?.ttlMs ?? null,
        also?.key ?? null,
        alsoText,
        also?.ttlMs ?? null,
        deadline,
      ],
    );
    if (row === undefined) throw unexpected('set');
    this.#wrote();
    switch (row.o_status) {
      case 'written':
        return { ok: true, version: Number(row.o_version) };
      case 'late':
        throw lateWriteError('set');
      case 'conflict':
      case 'blocked':
        return {
          ok: false,
          current: entryOf(row.o_version, row.o_value, 'set'),
          ...(row.o_status === 'blocked' ? { blocked: Number(row.o_blocked) } : {}),
          ...(also === undefined
            ? {}
            : { alsoCurrent: entryOf(row.o_also_version, row.o_also_value, 'set') }),
        };
      default: {
        const unknown: never = row.o_status;
        throw unexpected('set', unknown);
      }
    }
  }

  /** Removes the entry (with `ifVersion`, only at that version); true when one was removed. */
  async delete(key: string, options: { readonly ifVersion?: number } = {}): Promise<boolean> {
    checkTextKey(key);
    checkVersion(options.ifVersion);
    const [row] = await this.#query<{ deleted: boolean }>(
      'delete',
      `SELECT "${this.#schema}".toolwarden_delete($1::text, $2::bigint) AS deleted`,
      [key, options.ifVersion ?? null],
    );
    return row?.deleted === true;
  }

  /** Adds 1 to every counter when each stays within its limit, else to none, atomically (the `Store` port's `reserve`). */
  async reserve(
    counters: readonly StoreCounter[],
    options: StoreReserveOptions = {},
  ): Promise<ReserveResult> {
    checkCounters(counters);
    checkTtl(options.ttlMs);
    checkDeadline(options.deadline);
    for (const counter of counters) checkTextKey(counter.key);
    const deadline = this.#deadline(options.deadline);
    const [row] = await this.#query<ReserveRow>(
      'reserve',
      `SELECT * FROM "${this.#schema}".toolwarden_reserve($1::text[], $2::bigint[], $3::bigint, $4::bigint)`,
      [
        counters.map((counter) => counter.key),
        counters.map((counter) => counter.limit),
        options.ttlMs ?? null,
        deadline,
      ],
    );
    if (row === undefined) throw unexpected('reserve');
    this.#wrote();
    const counts = (row.o_counts ?? []).map(Number);
    switch (row.o_status) {
      case 'reserved':
        return { ok: true, counts };
      case 'blocked':
        return { ok: false, blocked: Number(row.o_blocked), counts };
      case 'late':
        throw lateWriteError('reserve');
      default: {
        const unknown: never = row.o_status;
        throw unexpected('reserve', unknown);
      }
    }
  }

  /** Takes 1 off each counter (never below 0): a reservation whose call did not run. */
  async release(keys: readonly string[]): Promise<void> {
    if (!Array.isArray(keys)) throw new TypeError('release takes an array of keys');
    for (const key of keys) checkTextKey(key);
    if (keys.length === 0) return;
    await this.#query('release', `SELECT "${this.#schema}".toolwarden_release($1::text[])`, [keys]);
  }

  /** Ends the pool the store made (a pool passed in stays open). Later calls reject (`unavailable`). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#sweeping;
    await this.#endPool?.();
  }

  /**
   * The deadline a `set` or a `reserve` carries: the caller's, or earlier the one of this store's own wait
   * (`commandTimeoutMs`): a statement still waiting for a lock or a connection when the store gives up on
   * it does nothing when it runs.
   */
  #deadline(given: number | undefined): number {
    return earlierDeadline(given, storeDeadline(this.#timeoutMs)) as number;
  }

  /** Counts a write; every `DEFAULT_POSTGRES_SWEEP_EVERY_WRITES`, deletes the expired rows in the background. */
  #wrote(): void {
    this.#writes += 1;
    if (this.#writes < DEFAULT_POSTGRES_SWEEP_EVERY_WRITES || this.#sweeping !== undefined) return;
    this.#writes = 0;
    const s = `"${this.#schema}"`;
    const sweep = async () => {
      // One statement name per text: a named statement is prepared once per connection, by its name.
      for (const table of ['entries', 'counters']) {
        await this.#query(
          `sweep-${table}`,
          `DELETE FROM ${s}.toolwarden_${table} WHERE expires_at <= ${s}.toolwarden_now()`,
          [],
        );
      }
    };
    // A failed sweep is tried again after the next 1000 writes: expired rows are never read meanwhile.
    this.#sweeping = sweep()
      .catch(() => {})
      .finally(() => {
        this.#sweeping = undefined;
      });
  }

  /**
   * One statement, prepared once per connection (named by the schema's digest and the operation), settling
   * within `commandTimeoutMs`; what the driver or the server throws becomes `StoreError`.
   */
  async #query<Row>(operation: string, text: string, values: unknown[]): Promise<Row[]> {
    if (this.#closed && !operation.startsWith('sweep')) {
      throw new StoreError({ reason: 'unavailable', operation, message: 'the store is closed' });
    }
    const name = this.#statements + operation;
    try {
      const result = await withTimeout(() => this.#pool.query({ name, text, values }), {
        timeoutMs: this.#timeoutMs,
        timeoutError: () =>
          new StoreError({
            reason: 'unavailable',
            operation,
            message: `PostgreSQL did not answer within ${this.#timeoutMs} ms`,
          }),
        signal: undefined,
        abort: () => {},
      });
      return result.rows as Row[];
    } catch (error) {
      throw postgresFailure(operation, error);
    }
  }
}

/**
 * A store on PostgreSQL. With `{ url }` (`postgres://user:password@host:5432/database`) the store makes its
 * own node-postgres pool (`pg@8`, an optional peer: `npm install pg@8`) and ends it on `close()`; with
 * `{ pool }` it uses that pool as it is and never ends it. Either way it first creates the schema, its
 * tables and functions when they are absent (one transaction, safe when several processes open at once),
 * or checks their version. Rejects with `InvalidOptionsError` for bad options and `StoreError`
 * (`unavailable`) when the database cannot be reached within `commandTimeoutMs`, the driver is missing,
 * or the schema holds toolwarden's tables of a newer version.
 */
export async function createPostgresStore(
  target: PostgresStoreTarget,
  options: PostgresStoreOptions = {},
): Promise<PostgresStore> {
  const schema = checkSchema(options.schema);
  const timeoutMs =
    checkNumberOption(options.commandTimeoutMs, { option: 'commandTimeoutMs', min: 1, timer: true }) ??
    DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS;
  const maxConnections =
    checkNumberOption(options.maxConnections, { option: 'maxConnections', min: 1 }) ??
    DEFAULT_POSTGRES_MAX_CONNECTIONS;
  const given = (target ?? {}) as { url?: unknown; pool?: unknown };
  const settings = { schema, timeoutMs };
  if (given.pool !== undefined && given.url === undefined) {
    const pool = given.pool as Partial<PostgresStorePool> | null;
    if (typeof pool?.query !== 'function' || typeof pool.connect !== 'function') {
      throw new InvalidOptionsError({ option: 'pool', message: 'must be a node-postgres Pool' });
    }
    await prepare(given.pool as PostgresStorePool, schema, timeoutMs);
    return new PostgresStore(given.pool as PostgresStorePool, settings);
  }
  if (typeof given.url !== 'string' || given.pool !== undefined) {
    throw new InvalidOptionsError({
      option: 'url',
      message: `give either url (a string) or pool, got ${describeOptionValue(given.url)}`,
    });
  }
  const pool = await openPostgresPool(given.url, timeoutMs, maxConnections);
  try {
    await prepare(pool, schema, timeoutMs);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return new PostgresStore(pool, settings, () => pool.end());
}

async function prepare(pool: PostgresStorePool, schema: string, timeoutMs: number): Promise<void> {
  try {
    await withTimeout(() => preparePostgresSchema(pool, schema), {
      timeoutMs,
      timeoutError: () => new Error(`no answer within ${timeoutMs} ms`),
      signal: undefined,
      abort: () => {},
    });
  } catch (error) {
    throw postgresFailure('open', error);
  }
}

/** A key as `checkKey` takes it, and without U+0000, which PostgreSQL's text cannot hold (`storeKey` never makes one). */
function checkTextKey(key: unknown): asserts key is string {
  checkKey(key);
  if (key.includes('\u0000')) throw new TypeError('A PostgreSQL store key may not hold the character U+0000');
}

function checkSchema(schema: unknown): string {
  if (schema === undefined) return 'public';
  if (typeof schema !== 'string' || !POSTGRES_SCHEMA_NAME.test(schema)) {
    throw new InvalidOptionsError({
      option: 'schema',
      message: `must be a lower-case identifier (letters, digits and _, at most 63, not starting with a digit), got ${describeOptionValue(schema)}`,
    });
  }
  return schema;
}

/** An entry as a row holds it: version 0 (or none) is no entry; a value that is not JSON is `corrupt`. */
function entryOf(version: string | null, text: string | null, operation: string): StoreEntry | undefined {
  if (version === null || Number(version) === 0) return undefined;
  if (text === null) throw unexpected(operation);
  return { value: decodeStoreValue(text, operation), version: Number(version) };
}

function unexpected(operation: string, what?: unknown): StoreError {
  return new StoreError({
    reason: 'corrupt',
    operation,
    message: `toolwarden's function answered ${what === undefined ? 'nothing' : `"${String(what)}"`}: is the schema's version this toolwarden's?`,
  });
}
