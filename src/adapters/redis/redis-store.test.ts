import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient, RESP_TYPES } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { StoreError } from '../../core/errors/store-error.js';
import type { Store } from '../../core/store.js';
import { describeStoreContract } from '../../store/__fixtures__/store-contract.js';
import { storeKey } from '../../store/store-key.js';
import {
  type AdminClient,
  connectSharedRedis,
  deleteKeysUnder,
  SHARED_REDIS_URL,
  testKeyPrefix,
} from './__fixtures__/shared-redis.js';
import { createRedisStore } from './redis-store.js';

describeStoreContract(
  'redis',
  async () => {
    const admin = await connectSharedRedis();
    const keyPrefix = testKeyPrefix();
    const open = () => createRedisStore({ url: SHARED_REDIS_URL }, { keyPrefix });
    const store = await open();
    return {
      store,
      reopen: open,
      corrupt: async (key) => {
        await admin.hSet(keyPrefix + key, { v: 'not json {', n: '1' });
      },
      cleanup: async () => {
        await store.close();
        await deleteKeysUnder(admin, keyPrefix);
        admin.destroy();
      },
    };
  },
  { durable: true },
);

/** Rejects with a StoreError: its reason and operation. */
async function storeFailure(call: Promise<unknown>): Promise<{ reason: string; operation: string }> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!StoreError.isInstance(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return { reason: error.reason, operation: error.operation };
}

describe('RedisStore on the shared Redis', () => {
  let admin: AdminClient;
  let store: Store;
  const keyPrefix = testKeyPrefix();
  const key = (what: string) => storeKey(`redis-${what}`, what);
  beforeAll(async () => {
    admin = await connectSharedRedis();
    store = await createRedisStore({ url: SHARED_REDIS_URL }, { keyPrefix });
  });
  afterAll(async () => {
    await store?.close?.();
    if (admin !== undefined) {
      await deleteKeysUnder(admin, keyPrefix);
      admin.destroy();
    }
  });

  it('puts the prefix before the key, outside the hash tag, and keeps an entry as a hash', async () => {
    const k = key('layout');
    await store.set(k, { a: 1 }, { ttlMs: 60_000 });
    expect(await admin.hGetAll(keyPrefix + k)).toEqual({ v: '{"a":1}', n: '1' });
    expect((keyPrefix + k).indexOf('{')).toBeGreaterThan(keyPrefix.length);
    expect(await admin.pTTL(keyPrefix + k)).toBeGreaterThan(0);
    await store.set(k, { a: 2 });
    expect(await admin.pTTL(keyPrefix + k)).toBe(-1);
  });

  it('keeps an existing expiry of a counter, and gives one to a counter that has none', async () => {
    const k = key('counter-expiry');
    await store.reserve([{ key: k, limit: 5 }], { ttlMs: 60_000 });
    await store.reserve([{ key: k, limit: 5 }], { ttlMs: 1 });
    expect(await admin.pTTL(keyPrefix + k)).toBeGreaterThan(1_000);
    const plain = key('counter-no-expiry');
    await store.reserve([{ key: plain, limit: 5 }]);
    expect(await admin.pTTL(keyPrefix + plain)).toBe(-1);
    await store.reserve([{ key: plain, limit: 5 }], { ttlMs: 60_000 });
    expect(await admin.pTTL(keyPrefix + plain)).toBeGreaterThan(0);
  });

  it('reports a key of the other kind (an entry used as a counter, and back) as corrupt', async () => {
    const counter = key('counter-as-entry');
    await store.reserve([{ key: counter, limit: 5 }]);
    expect(await storeFailure(store.get(counter))).toEqual({ reason: 'corrupt', operation: 'get' });
    expect(await storeFailure(store.set(counter, 1))).toEqual({ reason: 'corrupt', operation: 'set' });
    expect(await storeFailure(store.delete(counter))).toEqual({ reason: 'corrupt', operation: 'delete' });
    const entry = key('entry-as-counter');
    await store.set(entry, 'value');
    expect(await storeFailure(store.reserve([{ key: entry, limit: 5 }]))).toEqual({
      reason: 'corrupt',
      operation: 'reserve',
    });
    expect(await storeFailure(store.release([entry]))).toEqual({ reason: 'corrupt', operation: 'release' });
    expect(await store.get(entry)).toEqual({ value: 'value', version: 1 });
  });

  it('reports fields the store did not write as corrupt, and delete without ifVersion clears them', async () => {
    const noVersion = key('no-version');
    await admin.hSet(keyPrefix + noVersion, { v: '1' });
    expect(await storeFailure(store.get(noVersion))).toEqual({ reason: 'corrupt', operation: 'get' });
    expect(await storeFailure(store.set(noVersion, 2))).toEqual({ reason: 'corrupt', operation: 'set' });
    expect(await storeFailure(store.delete(noVersion, { ifVersion: 1 }))).toMatchObject({
      reason: 'corrupt',
    });
    expect(await store.delete(noVersion)).toBe(true);
    const badVersion = key('bad-version');
    await admin.hSet(keyPrefix + badVersion, { v: '1', n: 'x' });
    expect(await storeFailure(store.get(badVersion))).toMatchObject({ reason: 'corrupt' });
    const notJson = key('refused-over-not-json');
    await admin.hSet(keyPrefix + notJson, { v: '{', n: '3' });
    expect(await storeFailure(store.set(notJson, 1, { ifVersion: 1 }))).toMatchObject({ reason: 'corrupt' });
    const badCount = key('bad-count');
    await admin.set(keyPrefix + badCount, '1.5');
    expect(await storeFailure(store.reserve([{ key: badCount, limit: 9 }]))).toMatchObject({
      reason: 'corrupt',
    });
    expect(await storeFailure(store.release([badCount]))).toMatchObject({ reason: 'corrupt' });
    expect(await admin.get(keyPrefix + badCount)).toBe('1.5');
  });

  it('uses a client passed in (RESP3, Buffer replies) without closing it; a closed store refuses calls', async () => {
    const client = createClient({
      url: SHARED_REDIS_URL,
      RESP: 3,
      commandOptions: { typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer } },
    });
    await client.connect();
    try {
      const borrowed = await createRedisStore({ client }, { keyPrefix });
      const k = key('borrowed');
      expect(await borrowed.set(k, 'x')).toEqual({ ok: true, version: 1 });
      expect(await borrowed.set(k, 'y', { ifVersion: 0 })).toEqual({
        ok: false,
        current: { value: 'x', version: 1 },
      });
      expect(await borrowed.get(k)).toEqual({ value: 'x', version: 1 });
      expect(await borrowed.delete(k, { ifVersion: 1 })).toBe(true);
      const counter = { key: key('borrowed-count'), limit: 1 };
      expect(await borrowed.reserve([counter])).toEqual({ ok: true, counts: [1] });
      expect(await borrowed.reserve([counter])).toEqual({ ok: false, blocked: 0, counts: [1] });
      await borrowed.release([counter.key]);
      await borrowed.close();
      expect(client.isOpen).toBe(true);
      expect(await client.ping()).toBe('PONG');
      expect(await storeFailure(borrowed.get(k))).toEqual({
        reason: 'unavailable',
        operation: 'get',
      });
    } finally {
      client.destroy();
    }
  });

  it('refuses bad options with InvalidOptionsError', async () => {
    const refused = [
      createRedisStore({ url: SHARED_REDIS_URL }, { keyPrefix: 'a{b}:' }),
      createRedisStore({ url: SHARED_REDIS_URL }, { keyPrefix: 'k'.repeat(257) }),
      createRedisStore({ url: SHARED_REDIS_URL }, { commandTimeoutMs: 0 }),
      createRedisStore({ url: SHARED_REDIS_URL }, { commandTimeoutMs: 2 ** 31 }),
      createRedisStore({ url: 'not a url' }),
      createRedisStore({ url: 42 } as unknown as { url: string }),
      createRedisStore({ client: {} } as unknown as { url: string }),
      createRedisStore(undefined as unknown as { url: string }),
    ];
    for (const call of refused) {
      await expect(call).rejects.toSatisfy((error) => InvalidOptionsError.isInstance(error));
    }
  });

  it('says how to install node-redis when a store over a URL cannot find it', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      fixture('../../__fixtures__/open-without-peer.ts'),
      'redis',
      'redis',
      JSON.stringify({ url: SHARED_REDIS_URL }),
    ]);
    expect(JSON.parse(stdout)).toEqual({
      storeError: true,
      reason: 'unavailable',
      message: expect.stringContaining('npm install redis@5'),
    });
  }, 60_000);

  it('reserves exactly 40 of 2 processes x 50 concurrent calls against a limit of 40', async (context) => {
    const k = key('two-processes');
    const worker = fixture('reserve-worker.ts');
    const children = [0, 1].map(() =>
      spawn(process.execPath, ['--import', 'tsx', worker, SHARED_REDIS_URL, keyPrefix, k, '40', '50'], {
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

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

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
