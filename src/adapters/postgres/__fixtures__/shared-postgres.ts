import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the tests share (trust auth, user postgres; CI's `.ci/run` starts it when it is not running). */
export const SHARED_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A pool to the shared PostgreSQL, for looking behind the store's back; fails loudly, saying how to start
 * it, when nothing answers at 127.0.0.1:5432: the PostgreSQL tests are never skipped.
 */
export async function connectSharedPostgres(): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: SHARED_POSTGRES_URL, max: 2, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (error) {
    await pool.end();
    throw new Error(
      'The PostgreSQL store tests need PostgreSQL at 127.0.0.1:5432 (trust auth, user postgres) and nothing ' +
        'answers there. Start it with: pg_ctlcluster <version> main start (CI: scripts/test-services.sh starts it)',
      { cause: error },
    );
  }
}

/** A schema name of this run's own (`tw_test_<hex>`), so runs on the shared database never meet. */
export function testSchema(): string {
  return `tw_test_${randomUUID().replaceAll('-', '')}`;
}

/** Drops a test's schema and everything in it. */
export async function dropSchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
