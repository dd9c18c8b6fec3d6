import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SQLITE_SWEEP_EVERY_WRITES } from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { StoreError } from '../../core/errors/store-error.js';
import { describeStoreContract } from '../../store/__fixtures__/store-contract.js';
import { createSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

const newFolder = () => mkdtempSync(join(tmpdir(), 'toolwarden-sqlite-'));

/** Runs `work` with a raw connection to the file, as another program would open it. */
function raw<T>(path: string, work: (database: Database.Database) => T): T {
  const database = new Database(path);
  try {
    return work(database);
  } finally {
    database.close();
  }
}

/** What a store call rejected with; fails the test when it did not reject. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

describeStoreContract(
  'sqlite',
  async () => {
    const folder = newFolder();
    const path = join(folder, 'store.db');
    const store = await createSqliteStore({ path });
    return {
      store,
      reopen: () => createSqliteStore({ path }),
      corrupt: async (key) => {
        raw(path, (database) =>
          database
            .prepare('INSERT INTO toolwarden_entries (key, value, version) VALUES (?, ?, 1)')
            .run(key, '{"half": "writ'),
        );
      },
      cleanup: async () => {
        await store.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  },
  { durable: true },
);

describe('SqliteStore', () => {
  const folders: string[] = [];
  const file = (name = 'store.db') => {
    const folder = newFolder();
    folders.push(folder);
    return join(folder, name);
  };
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /** Starts a worker process on `path`, resolving once it has opened the store. */
  async function startWorker(path: string, session: string) {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fixture('reserve-worker.ts'), path, session, '10', '50', '40'],
      { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const exited = once(child, 'exit');
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('ready');
    return {
      start: (at: number) => child.stdin.end(`${at}\n`),
      outcome: async () => {
        const line = (await lines.next()).value as string;
        expect(await exited).toEqual([0, null]);
        return JSON.parse(line) as { reserved: number[]; refused: number; failed: string[] };
      },
    };
  }

  // Ten counters, so that a reservation that is not atomic across processes shows (without BEGIN IMMEDIATE,
  // most runs of this test reserve more than 40 of some counter, or fail with SQLITE_BUSY).
  it('reserves exactly 40 of the 100 calls two processes make at once against a limit of 40, on each of 10 counters', async () => {
    const path = file();
    // Both open the new file at once (its tables are created once), then start reserving at one moment.
    const workers = await Promise.all([startWorker(path, 'two'), startWorker(path, 'two')]);
    const at = Date.now() + 100;
    for (const worker of workers) worker.start(at);
    const [first, second] = await Promise.all(workers.map((worker) => worker.outcome()));
    expect([...(first?.failed ?? []), ...(second?.failed ?? [])]).toEqual([]);
    expect(first?.reserved.map((reserved, counter) => reserved + (second?.reserved[counter] ?? 0))).toEqual(
      Array(10).fill(40),
    );
    expect((first?.refused ?? 0) + (second?.refused ?? 0)).toBe(600);
    const counted = raw(path, (database) =>
      database.prepare('SELECT count FROM toolwarden_counters ORDER BY key').pluck().all(),
    );
    expect(counted).toEqual(Array(10).fill(40));
  }, 60_000);

  it('refuses a file whose toolwarden tables are of a newer schema version, and leaves it as it is', async () => {
    const path = file();
    const first = await createSqliteStore({ path });
    await first.set('kept', 'value');
    await first.close();
    raw(path, (database) => database.exec('UPDATE toolwarden_schema SET version = 2'));
    const error = await rejection(createSqliteStore({ path }));
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'unavailable', operation: 'open' });
    expect((error as Error).message).toMatch(/schema version 2.*newer toolwarden/);
    raw(path, (database) => {
      expect(database.prepare('SELECT version FROM toolwarden_schema').pluck().get()).toBe(2);
      expect(database.prepare('SELECT value FROM toolwarden_entries').pluck().all()).toEqual(['"value"']);
    });
  });

  it('reports a folder that does not exist and a file that is not a database as StoreError (unavailable)', async () => {
    const missing = join(file(), '..', 'no-such-folder', 'store.db');
    const notADatabase = file('notes.txt');
    writeFileSync(notADatabase, 'these are my notes, not a database '.repeat(100));
    for (const path of [missing, notADatabase]) {
      const error = await rejection(createSqliteStore({ path }));
      expect(StoreError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'unavailable', operation: 'open' });
      expect((error as StoreError).cause).toBeInstanceOf(Error);
    }
  });

  it('fails a write with StoreError (unavailable) when another connection holds the file past the busy timeout', async () => {
    const path = file();
    const store = await createSqliteStore({ path, busyTimeoutMs: 0 });
    const holder = new Database(path);
    try {
      holder.exec('BEGIN IMMEDIATE');
      const error = await rejection(store.set('k', 'blocked'));
      expect(error).toMatchObject({ reason: 'unavailable', operation: 'set' });
      expect((error as StoreError).message).toContain('SQLITE_BUSY');
      expect(await store.get('k')).toBeUndefined();
      holder.exec('COMMIT');
      expect(await store.set('k', 'written')).toEqual({ ok: true, version: 1 });
    } finally {
      holder.close();
      await store.close();
    }
  });

  it('keeps a key that looks like SQL, or holds NUL or a lone surrogate, as just a key', async () => {
    const path = file();
    const store = await createSqliteStore({ path });
    const keys = [
      "x'); DROP TABLE toolwarden_entries; --",
      'a\u0000b',
      'a\u0000c',
      'lone \ud800',
      'lone \ud801',
      '%_*',
    ];
    for (const [index, key] of keys.entries()) await store.set(key, index);
    for (const [index, key] of keys.entries())
      expect(await store.get(key)).toEqual({ value: index, version: 1 });
    expect(await store.get('%')).toBeUndefined();
    expect(await store.reserve([{ key: keys[0] as string, limit: 1 }])).toEqual({ ok: true, counts: [1] });
    await store.close();
    raw(path, (database) => {
      expect(database.prepare('SELECT count(*) FROM toolwarden_entries').pluck().get()).toBe(keys.length);
    });
  });

  it("works on the application's open database, leaving its user_version, its settings and its closing to it", async () => {
    const database = new Database(file());
    try {
      database.pragma('user_version = 7');
      const store = await createSqliteStore({ database });
      expect(await store.set('k', 'v')).toEqual({ ok: true, version: 1 });
      await store.close();
      expect(database.open).toBe(true);
      expect(database.pragma('user_version', { simple: true })).toBe(7);
      expect(database.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(await rejection(store.get('k'))).toMatchObject({ reason: 'unavailable', operation: 'get' });
      const again = await createSqliteStore({ database });
      expect(await again.get('k')).toEqual({ value: 'v', version: 1 });
      database.close();
      const error = await rejection(again.get('k'));
      expect(error).toMatchObject({ reason: 'unavailable', operation: 'get' });
      expect((error as StoreError).cause).toBeInstanceOf(TypeError);
    } finally {
      if (database.open) database.close();
    }
  });

  it('opens its own file in WAL mode and refuses calls once closed', async () => {
    const path = file();
    const store = await createSqliteStore({ path });
    await store.close();
    await store.close();
    raw(path, (database) => expect(database.pragma('journal_mode', { simple: true })).toBe('wal'));
    const calls = [() => store.get('k'), () => store.set('k', 1), () => store.release(['k'])];
    for (const call of calls) expect(StoreError.isInstance(await rejection(call()))).toBe(true);
  });

  it('expires by the clock it is given, and deletes expired rows on open and every so many writes', async () => {
    const path = file();
    let now = 1_000;
    const clock = { now: () => now };
    const count = () =>
      raw(path, (database) =>
        database
          .prepare(
            'SELECT (SELECT count(*) FROM toolwarden_entries) + (SELECT count(*) FROM toolwarden_counters)',
          )
          .pluck()
          .get(),
      );
    const store = await createSqliteStore({ path, ...clock });
    await store.set('brief', 'v', { ttlMs: 10 });
    await store.reserve([{ key: 'counter', limit: 1 }], { ttlMs: 10 });
    now += 9;
    expect((await store.get('brief'))?.value).toBe('v');
    // A reservation of a live counter keeps the expiry its first one set.
    expect(await store.reserve([{ key: 'counter', limit: 2 }], { ttlMs: 1_000 })).toEqual({
      ok: true,
      counts: [2],
    });
    now += 1;
    expect(await store.get('brief')).toBeUndefined();
    expect(await store.reserve([{ key: 'counter', limit: 1 }], { ttlMs: 10 })).toEqual({
      ok: true,
      counts: [1],
    });
    expect(count()).toBe(2);
    await store.close();
    now += 10;
    await (await createSqliteStore({ path, ...clock })).close();
    expect(count()).toBe(0);

    const writer = await createSqliteStore({ path, ...clock });
    await writer.set('brief', 'v', { ttlMs: 10 });
    now += 10;
    // The write under 'brief' was the first since the store opened; this one is the last before the sweep.
    for (let i = 2; i < DEFAULT_SQLITE_SWEEP_EVERY_WRITES; i++) await writer.set('kept', i);
    expect(count()).toBe(2);
    await writer.set('kept', 'last');
    expect(count()).toBe(1);
    await writer.close();
  });

  it('refuses bad options with InvalidOptionsError before touching any file', async () => {
    const open = new Database(':memory:');
    const bad: unknown[] = [
      {},
      { path: '' },
      { path: 42 },
      { path: file(), busyTimeoutMs: -1 },
      { path: file(), busyTimeoutMs: '5000' },
      { path: file(), now: 'tomorrow' },
      { database: {} },
      { database: open, path: file() },
      { database: open, busyTimeoutMs: 10 },
    ];
    for (const options of bad) {
      const error = await rejection(createSqliteStore(options as SqliteStoreOptions));
      expect(InvalidOptionsError.isInstance(error)).toBe(true);
    }
    open.close();
  });

  it('says how to install the driver when better-sqlite3 cannot be found', async () => {
    const path = file();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('../__fixtures__/open-without-peer.ts', import.meta.url)),
        'better-sqlite3',
        'sqlite',
        JSON.stringify({ path }),
      ],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toEqual({
      storeError: true,
      reason: 'unavailable',
      message: expect.stringContaining('npm install better-sqlite3@12'),
    });
  }, 60_000);
});
