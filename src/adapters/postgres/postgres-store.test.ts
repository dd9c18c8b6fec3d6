import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { StoreError } from '../../core/errors/store-error.js';
import { describeStoreContract } from '../../store/__fixtures__/store-contract.js';
import { storeKey } from '../../store/store-key.js';
import {
  connectSharedPostgres,
  dropSchema,
  SHARED_POSTGRES_URL,
  testSchema,
} from './__fixtures__/shared-postgres.js';
import { startTcpProxy } from './__fixtures__/tcp-proxy.js';
import { POSTGRES_SCHEMA_VERSION } from './postgres-schema.js';
import { createPostgresStore, type PostgresStore } from './postgres-store.js';

describeStoreContract(
  'postgres',
  async () => {
    const admin = await connectSharedPostgres();
    const schema = testSchema();
    const open = () => createPostgresStore({ url: SHARED_POSTGRES_URL }, { schema });
    const store = await open();
    return {
      store,
      reopen: open,
      corrupt: async (key) => {
        await admin.query(
          `INSERT INTO "${schema}".toolwarden_entries (key, value, version) VALUES ($1, $2, 1)`,
          [key, '{"half": "writ'],
        );
      },
      cleanup: async () => {
        await store.close();
        await dropSchema(admin, schema);
        await admin.end();
      },
    };
  },
  { durable: true },
);

/** What a call rejected with, as a StoreError's reason and operation. */
async function storeFailure(call: Promise<unknown>): Promise<{ reason: string; operation: string }> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!StoreError.isInstance(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return { reason: error.reason, operation: error.operation };
}

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('PostgresStore on the shared PostgreSQL', () => {
  let admin: pg.Pool;
  let store: PostgresStore;
  const schemas: string[] = [];
  const schema = () => {
    const name = testSchema();
    schemas.push(name);
    return name;
  };
  const main = schema();
  const key = (what: string) => storeKey(`postgres-${what}`, what);
  beforeAll(async () => {
    admin = await connectSharedPostgres();
    store = await createPostgresStore({ url: SHARED_POSTGRES_URL }, { schema: main });
  });
  afterAll(async () => {
    await store?.close();
    if (admin !== undefined) {
      for (const name of schemas) await dropSchema(admin, name);
      await admin.end();
    }
  });

  it('keeps an entry as a row of JSON text with its version and its expiry by the database clock', async () => {
    const k = key('layout');
    await store.set(k, { b: 1, a: [2] }, { ttlMs: 60_000 });
    const { rows } = await admin.query(
      `SELECT value, version, expires_at - floor(extract(epoch FROM clock_timestamp()) * 1000) AS left
       FROM "${main}".toolwarden_entries WHERE key = $1`,
      [k],
    );
    expect(rows).toEqual([{ value: '{"b":1,"a":[2]}', version: '1', left: expect.any(String) }]);
    expect(Number(rows[0].left)).toBeGreaterThan(50_000);
    await store.set(k, 'kept');
    const again = await admin.query(`SELECT expires_at FROM "${main}".toolwarden_entries WHERE key = $1`, [
      k,
    ]);
    expect(again.rows).toEqual([{ expires_at: null }]);
  });

  it('refuses a key holding U+0000 with a TypeError, writing nothing', async () => {
    const bad = `${key('nul')}\u0000`;
    await expect(store.get(bad)).rejects.toThrow(TypeError);
    await expect(store.set(key('nul-entry'), 1, { also: { key: bad, value: 1 } })).rejects.toThrow(TypeError);
    await expect(store.reserve([{ key: bad, limit: 1 }])).rejects.toThrow(TypeError);
    await expect(store.release([bad])).rejects.toThrow(TypeError);
    await expect(store.delete(bad)).rejects.toThrow(TypeError);
    expect(await store.get(key('nul-entry'))).toBeUndefined();
  });

  it('creates its tables once when five stores open a new schema at once, and refuses a newer version', async () => {
    const fresh = schema();
    const stores = await Promise.all(
      Array.from({ length: 5 }, () => createPostgresStore({ url: SHARED_POSTGRES_URL }, { schema: fresh })),
    );
    try {
      const results = await Promise.all(stores.map((each, i) => each.set(key('fresh'), i, { ifVersion: 0 })));
      expect(results.filter((result) => result.ok)).toHaveLength(1);
    } finally {
      for (const each of stores) await each.close();
    }
    const { rows } = await admin.query(`SELECT version FROM "${fresh}".toolwarden_schema`);
    expect(rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
    await admin.query(`UPDATE "${fresh}".toolwarden_schema SET version = $1`, [POSTGRES_SCHEMA_VERSION + 1]);
    const refused = createPostgresStore({ url: SHARED_POSTGRES_URL }, { schema: fresh });
    await expect(refused).rejects.toSatisfy(
      (error) =>
        StoreError.isInstance(error) && error.operation === 'open' && /newer toolwarden/.test(error.message),
    );
  });

  it('uses a pool passed in without ending it; a closed store refuses calls', async () => {
    const pool = new pg.Pool({ connectionString: SHARED_POSTGRES_URL, max: 2 });
    try {
      const borrowed = await createPostgresStore({ pool }, { schema: main });
      const k = key('borrowed');
      expect(await borrowed.set(k, 'x')).toEqual({ ok: true, version: 1 });
      expect(await borrowed.get(k)).toEqual({ value: 'x', version: 1 });
      expect(await borrowed.delete(k, { ifVersion: 1 })).toBe(true);
      await borrowed.close();
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect(await storeFailure(borrowed.get(k))).toEqual({ reason: 'unavailable', operation: 'get' });
    } finally {
      await pool.end();
    }
  });

  it('sends each operation as one statement: a SELECT for get, one function call for each write', async () => {
    const pool = new pg.Pool({ connectionString: SHARED_POSTGRES_URL, max: 2 });
    const sent: string[] = [];
    const counting = {
      query: (config: { text: string; values: unknown[]; name?: string }) => {
        sent.push(
          /toolwarden_(set|delete|reserve|release)\(|^\s*SELECT value/.exec(config.text)?.[0]?.trim() ??
            config.text,
        );
        return pool.query(config);
      },
      connect: () => pool.connect(),
    };
    try {
      const counted = await createPostgresStore({ pool: counting }, { schema: main });
      const k = (what: string) => storeKey('postgres-round-trips', what);
      await counted.get(k('entry'));
      await counted.set(k('entry'), 1, {
        ifVersion: 0,
        ttlMs: 60_000,
        reserve: { counters: [{ key: k('turn'), limit: 9 }] },
        also: { key: k('latest'), value: 1 },
      });
      await counted.delete(k('entry'), { ifVersion: 1 });
      await counted.reserve(
        [k('a'), k('b'), k('c')].map((key) => ({ key, limit: 9 })),
        { ttlMs: 60_000 },
      );
      await counted.release([k('a'), k('b')]);
      expect(sent).toEqual([
        'SELECT value',
        'toolwarden_set(',
        'toolwarden_delete(',
        'toolwarden_reserve(',
        'toolwarden_release(',
      ]);
    } finally {
      await pool.end();
    }
  });

  it('deletes expired entries and counters every 1000 writes of a store', async () => {
    const sweeping = await createPostgresStore({ url: SHARED_POSTGRES_URL }, { schema: main });
    const k = (what: string) => storeKey('postgres-sweep', what);
    await sweeping.set(k('brief'), 1, { ttlMs: 1 });
    await sweeping.reserve([{ key: k('brief-count'), limit: 9 }], { ttlMs: 1 });
    await sweeping.set(k('kept'), 1);
    const left = async () =>
      (
        await admin.query(
          `SELECT key FROM "${main}".toolwarden_entries WHERE key LIKE $1
           UNION ALL SELECT key FROM "${main}".toolwarden_counters WHERE key LIKE $1 ORDER BY 1`,
          [`${k('')}%`],
        )
      ).rows.map((row: { key: string }) => row.key);
    expect(await left()).toEqual([k('brief'), k('brief-count'), k('kept')]);
    for (let round = 0; round < 10; round++) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => sweeping.set(k(`fill-${i}`), round)));
    }
    // close() waits for a sweep under way.
    await sweeping.close();
    expect((await left()).filter((key) => !key.includes('fill'))).toEqual([k('kept')]);
  }, 60_000);

  it('works under a schema name of 63 characters, the longest PostgreSQL keeps', async () => {
    const long = `${testSchema()}${'x'.repeat(23)}`;
    expect(long).toHaveLength(63);
    schemas.push(long);
    const longStore = await createPostgresStore({ url: SHARED_POSTGRES_URL }, { schema: long });
    try {
      const k = key('long-schema');
      const counter = { key: key('long-schema-count'), limit: 1 };
      expect(await longStore.set(k, 'x', { ifVersion: 0 })).toEqual({ ok: true, version: 1 });
      expect(await longStore.get(k)).toEqual({ value: 'x', version: 1 });
      expect(await longStore.reserve([counter])).toEqual({ ok: true, counts: [1] });
      await longStore.release([counter.key]);
      expect(await longStore.reserve([counter])).toEqual({ ok: true, counts: [1] });
      expect(await longStore.delete(k, { ifVersion: 1 })).toBe(true);
    } finally {
      await longStore.close();
    }
  });

  it('refuses bad options with InvalidOptionsError', async () => {
    const refused = [
      createPostgresStore({ url: SHARED_POSTGRES_URL }, { schema: 'Has"Quote' }),
      createPostgresStore({ url: SHARED_POSTGRES_URL }, { schema: 's'.repeat(64) }),
      createPostgresStore({ url: SHARED_POSTGRES_URL }, { commandTimeoutMs: 0 }),
      createPostgresStore({ url: SHARED_POSTGRES_URL }, { maxConnections: 0 }),
      createPostgresStore({ url: 42 } as unknown as { url: string }),
      createPostgresStore({ pool: {} } as unknown as { url: string }),
      createPostgresStore(undefined as unknown as { url: string }),
    ];
    for (const call of refused) {
      await expect(call).rejects.toSatisfy((error) => InvalidOptionsError.isInstance(error));
    }
  });

  it('rejects with StoreError (unavailable) when nothing answers, or the database does not exist', async () => {
    const proxy = await startTcpProxy();
    await proxy.cut();
    const down = await storeFailure(createPostgresStore({ url: proxy.url }, { commandTimeoutMs: 2_000 }));
    expect(down).toEqual({ reason: 'unavailable', operation: 'open' });
    const missing = await createPostgresStore({
      url: 'postgres://postgres@127.0.0.1:5432/tw_no_such_database',
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(StoreError.isInstance(missing)).toBe(true);
    expect((missing as StoreError).message).toContain('3D000');
  });

  it('fails each call as unavailable while the database is away, and works again when it is back', async () => {
    const proxy = await startTcpProxy();
    const away = await createPostgresStore({ url: proxy.url }, { schema: main, commandTimeoutMs: 2_000 });
    try {
      const k = key('outage');
      const counter = { key: key('outage-count'), limit: 5 };
      expect(await away.set(k, 'before')).toEqual({ ok: true, version: 1 });
      await proxy.cut();
      expect(await storeFailure(away.get(k))).toEqual({ reason: 'unavailable', operation: 'get' });
      expect(await storeFailure(away.set(k, 'during'))).toEqual({ reason: 'unavailable', operation: 'set' });
      expect(await storeFailure(away.reserve([counter]))).toEqual({
        reason: 'unavailable',
        operation: 'reserve',
      });
      expect(await storeFailure(away.release([counter.key]))).toEqual({
        reason: 'unavailable',
        operation: 'release',
      });
      expect(await storeFailure(away.delete(k))).toEqual({ reason: 'unavailable', operation: 'delete' });
      await proxy.restore();
      expect(await away.get(k)).toEqual({ value: 'before', version: 1 });
      expect(await away.reserve([counter])).toEqual({ ok: true, counts: [1] });
    } finally {
      await away.close();
      await proxy.close();
    }
  }, 30_000);

  it('settles within commandTimeoutMs as unavailable when the connection freezes, and works after it', async () => {
    const proxy = await startTcpProxy();
    const frozen = await createPostgresStore({ url: proxy.url }, { schema: main, commandTimeoutMs: 1_000 });
    try {
      const k = key('frozen');
      expect(await frozen.get(k)).toBeUndefined();
      proxy.stall();
      expect(await storeFailure(frozen.set(k, 'frozen', { ifVersion: 0 }))).toEqual({
        reason: 'unavailable',
        operation: 'set',
      });
      proxy.resume();
      expect(await frozen.set(k, 'after', { ifVersion: 0 })).toEqual({ ok: true, version: 1 });
    } finally {
      await frozen.close();
      await proxy.close();
    }
  }, 30_000);

  it('a write that waited for its key past its deadline writes and counts nothing when it gets the key', async () => {
    const k = key('waited');
    const counter = { key: key('waited-count'), limit: 5 };
    // Another transaction holds the key's lock (as a slow writer of another process would) for 700 ms.
    const holder = await admin.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`"${main}":${k}`]);
    const waiting = await createPostgresStore(
      { url: SHARED_POSTGRES_URL },
      { schema: main, commandTimeoutMs: 1_000 },
    );
    try {
      const write = waiting.set(k, 'late', { ifVersion: 0, reserve: { counters: [counter] } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 700));
      await holder.query('COMMIT');
      // Refused by the function itself (the deadline, 500 ms in), not by the store's wait (1000 ms).
      expect(await write).toMatchObject({
        reason: 'unavailable',
        operation: 'set',
        message: expect.stringContaining('after its deadline'),
      });
      expect(await store.get(k)).toBeUndefined();
      expect(await store.reserve([counter])).toEqual({ ok: true, counts: [1] });
    } finally {
      holder.release();
      await waiting.close();
    }
  }, 30_000);

  it('works again after the server cut its connections (pg_terminate_backend)', async () => {
    const k = key('terminated');
    await store.set(k, 1);
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = 'postgres' AND pid <> pg_backend_pid() AND application_name = '' AND query LIKE '%${main}%'`,
    );
    // An idle connection cut by the server is dropped by the pool; the next call opens another.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await store.get(k)).toEqual({ value: 1, version: 1 });
  });

  it('says how to install node-postgres when a store over a URL cannot find it', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      fixture('../../__fixtures__/open-without-peer.ts'),
      'pg',
      'postgres',
      JSON.stringify({ url: SHARED_POSTGRES_URL }),
    ]);
    expect(JSON.parse(stdout)).toEqual({
      storeError: true,
      reason: 'unavailable',
      message: expect.stringContaining('npm install pg@8'),
    });
  }, 60_000);

  it('reserves exactly 40 of 2 processes x 50 concurrent calls against a limit of 40', async (context) => {
    const k = key('two-processes');
    const worker = fixture('reserve-worker.ts');
    const children = [0, 1].map(() =>
      spawn(process.execPath, ['--import', 'tsx', worker, SHARED_POSTGRES_URL, main, k, '40', '50'], {
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const lines = children.map((child) => readLines(child));
    await Promise.all(lines.map((next) => next()));
    for (const child of children) child.stdin?.write('go\n');
    const reserved = await Promise.all(
      lines.map(async (next) => (JSON.parse(await next()) as { reserved: number }).reserved),
    );
    await Promise.all(children.map((child) => once(child, 'exit')));
    const total = reserved.reduce((sum, count) => sum + count, 0);
    context.annotate(`two processes reserved ${reserved.join(' + ')} = ${total}`);
    expect(total).toBe(40);
    expect(await store.reserve([{ key: k, limit: 40 }])).toEqual({ ok: false, blocked: 0, counts: [40] });
  }, 60_000);
});

/** The lines a child writes, one per call, in order. */
function readLines(child: ChildProcess): () => Promise<string> {
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let rest = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) {
      const waiter = waiting.shift();
      if (waiter === undefined) lines.push(line);
      else waiter(line);
    }
  });
  return () => {
    const line = lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      waiting.push(resolve);
      child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before writing a line`)));
    });
  };
}
