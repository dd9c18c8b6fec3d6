import type { Pool, PoolConfig } from 'pg';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { StoreError } from '../../core/errors/store-error.js';
import { postgresFailure } from './postgres-failure.js';

/** A result as node-postgres hands it back: its rows. */
export interface PostgresStoreResult {
  /** The rows, one object per row, by column name. */
  readonly rows: readonly unknown[];
}

/** One connection checked out of a pool, as node-postgres' `PoolClient` has it. */
export interface PostgresStorePoolClient {
  /** One statement on this connection. */
  query(text: string, values?: unknown[]): Promise<PostgresStoreResult>;
  /** Back to the pool; with an error, the pool closes the connection instead. */
  release(error?: Error | boolean): void;
}

/**
 * The pool the store sends its queries through: a node-postgres `Pool` (`pg@8`). The store only borrows a
 * pool it is given: it never ends it.
 */
export interface PostgresStorePool {
  /** One query on any connection of the pool (a named statement is prepared once per connection). */
  query(config: { text: string; values: unknown[]; name?: string }): Promise<PostgresStoreResult>;
  /** A connection of its own, for a transaction of several statements. */
  connect(): Promise<PostgresStorePoolClient>;
}

/** The pool a store makes for itself from a URL, and ends on `close()`. */
export interface OwnPostgresPool extends PostgresStorePool {
  end(): Promise<void>;
}

/**
 * node-postgres, loaded when a store connects to a URL. It is an optional peer dependency: importing
 * `toolwarden/postgres` works without it (a store over a pool passed in never loads it), and connecting
 * says how to install it.
 */
async function loadPool(): Promise<typeof Pool> {
  try {
    return (await import('pg')).default.Pool;
  } catch (error) {
    if ((error as { code?: unknown } | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') {
      throw postgresFailure('connect', error);
    }
    throw new StoreError({
      reason: 'unavailable',
      operation: 'connect',
      message: 'the PostgreSQL client node-postgres is not installed: npm install pg@8',
      cause: error,
    });
  }
}

/**
 * A pool to `url` whose connections are made within `timeoutMs` and whose queries give up after it
 * (client side, `query_timeout`: the connection is then closed, not reused; server side,
 * `statement_timeout`). An idle connection that breaks (a restarted server) is dropped without crashing
 * the process, and the next query opens a new one, so the store works again when the database is back.
 */
export async function openPostgresPool(
  url: string,
  timeoutMs: number,
  maxConnections: number,
): Promise<OwnPostgresPool> {
  const PoolClass = await loadPool();
  const config: PoolConfig = {
    connectionString: url,
    max: maxConnections,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    statement_timeout: timeoutMs,
    // A pool that holds no connection does not keep the process alive.
    allowExitOnIdle: true,
  };
  let pool: Pool;
  try {
    pool = new PoolClass(config);
  } catch (error) {
    throw new InvalidOptionsError({
      option: 'url',
      message: `is not a PostgreSQL URL (${(error as Error).message})`,
    });
  }
  // Without a listener, an idle connection's error (the server went away) would crash the process; the
  // failures reach the caller as StoreError from the calls instead.
  pool.on('error', () => {});
  return pool;
}
