import { StoreError } from '../../core/errors/store-error.js';
import type { PostgresStorePool } from './postgres-pool.js';

/**
 * The version of the tables and functions below. A change to them adds a step from the previous version
 * in `preparePostgresSchema` and raises this number; a schema of a higher version (written by a newer
 * toolwarden) is refused, never read or changed.
 */
export const POSTGRES_SCHEMA_VERSION = 1;

/** A schema name the store accepts: a plain lower-case identifier, so it is never quoted wrongly. */
export const POSTGRES_SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Values and counters, each with when it expires (the database's clock, milliseconds since the epoch;
 * NULL: never), and one function per write of the port. Each function takes transaction-level advisory
 * locks on the keys it touches (by a 64-bit hash of the schema and the key, in ascending order, so two
 * calls never wait for each other in a cycle), then reads and writes under them: compare-and-set on a key
 * that has no row yet is as safe as on one that has, and one call is one statement, one round trip. A
 * hash collision only makes two keys wait for each other. The clock is read after the locks are held, so
 * a deadline is checked against the moment the write can happen.
 *
 * Values are JSON text (`text`, not `jsonb`: jsonb would reorder an object's keys and refuse `\u0000`).
 */
function schemaSql(s: string): string {
  const live = (alias: string) => `(${alias}.expires_at IS NULL OR ${alias}.expires_at > now_ms)`;
  return `
  CREATE TABLE ${s}.toolwarden_entries (
    key text PRIMARY KEY,
    value text NOT NULL,
    version bigint NOT NULL CHECK (version >= 1),
    expires_at bigint
  );
  CREATE INDEX toolwarden_entries_expiry ON ${s}.toolwarden_entries (expires_at) WHERE expires_at IS NOT NULL;
  CREATE TABLE ${s}.toolwarden_counters (
    key text PRIMARY KEY,
    count bigint NOT NULL CHECK (count >= 0),
    expires_at bigint
  );
  CREATE INDEX toolwarden_counters_expiry ON ${s}.toolwarden_counters (expires_at) WHERE expires_at IS NOT NULL;

  CREATE FUNCTION ${s}.toolwarden_now() RETURNS bigint LANGUAGE sql VOLATILE AS
  $$ SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;

  CREATE FUNCTION ${s}.toolwarden_lock(keys text[]) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE id bigint;
  BEGIN
    FOR id IN
      SELECT DISTINCT hashtextextended(${quoteLiteral(`${s}:`)} || k, 0) FROM unnest(keys) AS k
      WHERE k IS NOT NULL ORDER BY 1
    LOOP
      PERFORM pg_advisory_xact_lock(id);
    END LOOP;
  END $$;

  -- reserve's work, under the locks its caller holds: every counter takes 1, or none (blocked: the index).
  CREATE FUNCTION ${s}.toolwarden_reserve_in(keys text[], limits bigint[], ttl bigint, now_ms bigint,
    OUT o_blocked integer, OUT o_counts bigint[]) LANGUAGE plpgsql AS $$
  BEGIN
    SELECT array_agg(COALESCE(c.count, 0) ORDER BY k.i) INTO o_counts
      FROM unnest(keys) WITH ORDINALITY AS k(key, i)
      LEFT JOIN ${s}.toolwarden_counters c ON c.key = k.key AND ${live('c')};
    o_blocked := -1;
    FOR i IN 1 .. array_length(keys, 1) LOOP
      IF o_counts[i] + 1 > limits[i] THEN
        o_blocked := i - 1;
        RETURN;
      END IF;
    END LOOP;
    -- A new (or expired) counter expires after this call's ttl; a live one keeps its expiry, and takes
    -- this call's only when it has none, as MemoryStore does.
    INSERT INTO ${s}.toolwarden_counters AS c (key, count, expires_at)
      SELECT k, 1, now_ms + ttl FROM unnest(keys) AS k
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN ${live('c')} THEN c.count + 1 ELSE 1 END,
        expires_at = CASE WHEN ${live('c')} THEN COALESCE(c.expires_at, excluded.expires_at)
          ELSE excluded.expires_at END;
    FOR i IN 1 .. array_length(keys, 1) LOOP
      o_counts[i] := o_counts[i] + 1;
    END LOOP;
  END $$;

  -- o_status: 'written', 'conflict' (ifVersion), 'blocked' (a counter), 'late' (the deadline).
  CREATE FUNCTION ${s}.toolwarden_set(p_key text, p_value text, p_if_version bigint, p_ttl bigint,
    p_counter_keys text[], p_counter_limits bigint[], p_counter_ttl bigint,
    p_also_key text, p_also_value text, p_also_ttl bigint, p_deadline bigint,
    OUT o_status text, OUT o_version bigint, OUT o_value text, OUT o_blocked integer,
    OUT o_also_version bigint, OUT o_also_value text) LANGUAGE plpgsql AS $$
  DECLARE
    now_ms bigint;
    reserved record;
  BEGIN
    PERFORM ${s}.toolwarden_lock(ARRAY[p_key, p_also_key] || COALESCE(p_counter_keys, '{}'));
    now_ms := ${s}.toolwarden_now();
    IF p_deadline IS NOT NULL AND now_ms >= p_deadline THEN
      o_status := 'late';
      RETURN;
    END IF;
    SELECT e.value, e.version INTO o_value, o_version FROM ${s}.toolwarden_entries e
      WHERE e.key = p_key AND ${live('e')};
    o_version := COALESCE(o_version, 0);
    IF p_also_key IS NOT NULL THEN
      SELECT e.value, e.version INTO o_also_value, o_also_version FROM ${s}.toolwarden_entries e
        WHERE e.key = p_also_key AND ${live('e')};
      o_also_version := COALESCE(o_also_version, 0);
    END IF;
    IF p_if_version IS NOT NULL AND p_if_version <> o_version THEN
      o_status := 'conflict';
      RETURN;
    END IF;
    IF p_counter_keys IS NOT NULL THEN
      reserved := ${s}.toolwarden_reserve_in(p_counter_keys, p_counter_limits, p_counter_ttl, now_ms);
      IF reserved.o_blocked >= 0 THEN
        o_status := 'blocked';
        o_blocked := reserved.o_blocked;
        RETURN;
      END IF;
    END IF;
    -- An expired row under the key is overwritten: the new entry starts again at version 1.
    INSERT INTO ${s}.toolwarden_entries AS e (key, value, version, expires_at)
      VALUES (p_key, p_value, o_version + 1, now_ms + p_ttl)
      ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = excluded.version,
        expires_at = excluded.expires_at;
    IF p_also_key IS NOT NULL THEN
      INSERT INTO ${s}.toolwarden_entries AS e (key, value, version, expires_at)
        VALUES (p_also_key, p_also_value, o_also_version + 1, now_ms + p_also_ttl)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = excluded.version,
          expires_at = excluded.expires_at;
    END IF;
    o_status := 'written';
    o_version := o_version + 1;
    o_value := NULL;
    o_also_value := NULL;
  END $$;

  CREATE FUNCTION ${s}.toolwarden_delete(p_key text, p_if_version bigint) RETURNS boolean
  LANGUAGE plpgsql AS $$
  DECLARE now_ms bigint;
  BEGIN
    PERFORM ${s}.toolwarden_lock(ARRAY[p_key]);
    now_ms := ${s}.toolwarden_now();
    DELETE FROM ${s}.toolwarden_entries e
      WHERE e.key = p_key AND ${live('e')} AND (p_if_version IS NULL OR e.version = p_if_version);
    RETURN FOUND;
  END $$;

  CREATE FUNCTION ${s}.toolwarden_reserve(p_keys text[], p_limits bigint[], p_ttl bigint, p_deadline bigint,
    OUT o_status text, OUT o_blocked integer, OUT o_counts bigint[]) LANGUAGE plpgsql AS $$
  DECLARE
    now_ms bigint;
    reserved record;
  BEGIN
    PERFORM ${s}.toolwarden_lock(p_keys);
    now_ms := ${s}.toolwarden_now();
    IF p_deadline IS NOT NULL AND now_ms >= p_deadline THEN
      o_status := 'late';
      RETURN;
    END IF;
    reserved := ${s}.toolwarden_reserve_in(p_keys, p_limits, p_ttl, now_ms);
    o_status := CASE WHEN reserved.o_blocked >= 0 THEN 'blocked' ELSE 'reserved' END;
    o_blocked := reserved.o_blocked;
    o_counts := reserved.o_counts;
  END $$;

  -- One key named twice gives back 2, as two calls would.
  CREATE FUNCTION ${s}.toolwarden_release(p_keys text[]) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE
    now_ms bigint;
    k text;
  BEGIN
    PERFORM ${s}.toolwarden_lock(p_keys);
    now_ms := ${s}.toolwarden_now();
    FOREACH k IN ARRAY p_keys LOOP
      UPDATE ${s}.toolwarden_counters c SET count = c.count - 1
        WHERE c.key = k AND c.count > 0 AND ${live('c')};
    END LOOP;
  END $$;
`;
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * Creates the schema and toolwarden's tables and functions in it when it has none, or checks that it has
 * them at this version. One transaction under an advisory lock on the schema's name, so two processes
 * opening a new database at once create them once. Needs the right to create in the database (or the
 * schema) the first time only.
 */
export async function preparePostgresSchema(pool: PostgresStorePool, schema: string): Promise<void> {
  const client = await pool.connect();
  let failed: unknown;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `toolwarden-schema:${schema}`,
    ]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS "${schema}".toolwarden_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)`,
    );
    const { rows } = await client.query(`SELECT version FROM "${schema}".toolwarden_schema`);
    const version = (rows[0] as { version?: unknown } | undefined)?.version;
    if (version === undefined) {
      await client.query(schemaSql(`"${schema}"`));
      await client.query(`INSERT INTO "${schema}".toolwarden_schema (id, version) VALUES (1, $1)`, [
        POSTGRES_SCHEMA_VERSION,
      ]);
    } else if (version !== POSTGRES_SCHEMA_VERSION) {
      throw new StoreError({
        reason: 'unavailable',
        operation: 'open',
        message: `the schema "${schema}" holds toolwarden's tables at version ${String(version)}, and this toolwarden knows version ${POSTGRES_SCHEMA_VERSION} at most: it was written by a newer toolwarden (upgrade this one), and is left as it is`,
      });
    }
    await client.query('COMMIT');
  } catch (error) {
    failed = error;
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    // A client whose transaction failed is dropped, not pooled: its connection may be the cause.
    client.release(failed instanceof Error ? failed : undefined);
  }
}
