import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../../core/errors/store-error.js';
import type { Store } from '../../core/store.js';
import { storeKey } from '../../store/store-key.js';
import { countRoundTrips, type RedisServer, startRedisServer } from './__fixtures__/redis-server.js';
import { createRedisStore } from './redis-store.js';

/** Every operation of the port once, on keys of one session. */
function everyOperation(store: Store, session: string): Record<string, () => Promise<unknown>> {
  const k = (what: string) => storeKey(session, what);
  return {
    get: () => store.get(k('entry')),
    set: () => store.set(k('entry'), { n: 1 }),
    'set (ifVersion, ttlMs)': () => store.set(k('entry'), { n: 2 }, { ifVersion: 0, ttlMs: 60_000 }),
    delete: () => store.delete(k('entry'), { ifVersion: 1 }),
    'reserve (3 counters, ttlMs)': () =>
      store.reserve(
        ['turn', 'tool', 'session'].map((what) => ({ key: k(what), limit: 10 })),
        { ttlMs: 60_000 },
      ),
    'release (2 counters)': () => store.release([k('turn'), k('tool')]),
  };
}

describe('RedisStore on a private Redis', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  }, 30_000);
  afterAll(async () => server?.stop());

  it('sends each operation as one command: HMGET for get, EVALSHA for the rest', async (context) => {
    const store = await createRedisStore({ url: server.url });
    try {
      const operations = everyOperation(store, 'round-trips');
      for (const run of Object.values(operations)) await run();
      const seen: Record<string, readonly string[]> = {};
      for (const [name, run] of Object.entries(operations)) {
        seen[name] = (await countRoundTrips(server.url, run)).commands;
      }
      context.annotate(
        Object.entries(seen)
          .map(([name, commands]) => `${name}: ${commands.length} (${commands.join(', ')})`)
          .join('; '),
      );
      expect(seen).toEqual({
        get: ['hmget'],
        set: ['evalsha'],
        'set (ifVersion, ttlMs)': ['evalsha'],
        delete: ['evalsha'],
        'reserve (3 counters, ttlMs)': ['evalsha'],
        'release (2 counters)': ['evalsha'],
      });
      // A server that does not have the script yet (a restart, SCRIPT FLUSH) costs one more, once.
      const admin = createClient({ url: server.url });
      await admin.connect();
      await admin.scriptFlush();
      admin.destroy();
      const cold = await countRoundTrips(server.url, () => store.set(storeKey('cold', 'x'), 1));
      const warm = await countRoundTrips(server.url, () => store.set(storeKey('cold', 'x'), 2));
      context.annotate(
        `set after SCRIPT FLUSH: ${cold.commands.join(', ')}; then ${warm.commands.join(', ')}`,
      );
      expect([cold.commands, warm.commands]).toEqual([['evalsha', 'eval'], ['evalsha']]);
    } finally {
      await store.close();
    }
  });

  it('rejects every operation as unavailable while Redis is down, and works again once it is back', async () => {
    const own = await createRedisStore({ url: server.url }, { keyPrefix: 'own:' });
    // A client of the caller's, with node-redis' defaults: it queues commands while disconnected.
    const client = createClient({ url: server.url });
    client.on('error', () => {});
    await client.connect();
    const borrowed = await createRedisStore({ client }, { keyPrefix: 'borrowed:', commandTimeoutMs: 300 });
    try {
      const counter = { key: storeKey('outage', 'count'), limit: 5 };
      await server.stop();
      for (const store of [own, borrowed]) {
        for (const [name, run] of Object.entries(everyOperation(store, 'outage'))) {
          const error = await run().then(
            () => undefined,
            (thrown: unknown) => thrown,
          );
          expect(StoreError.isInstance(error), name).toBe(true);
          expect((error as StoreError).reason, name).toBe('unavailable');
          expect((error as StoreError).operation, name).toBe(name.split(' ')[0]);
        }
      }
      // The borrowed client queued this reservation; the deadline takes it out of the queue, so it is
      // not made behind the caller's back once the client reconnects.
      await expect(borrowed.reserve([counter])).rejects.toThrow(/did not answer within 300 ms/);
      await server.restart();
      for (const store of [own, borrowed]) {
        await vi.waitFor(() => store.get(storeKey('outage', 'probe')), { timeout: 20_000, interval: 50 });
        expect(await store.set(storeKey('outage', 'entry'), 'back', { ifVersion: 0 })).toMatchObject({
          ok: true,
        });
      }
      expect(await borrowed.reserve([counter])).toEqual({ ok: true, counts: [1] });
    } finally {
      await own.close();
      await borrowed.close();
      client.destroy();
    }
  }, 60_000);

  it('rejects as unavailable when Redis hangs (a command sent, no reply), and works once it answers', async () => {
    const store = await createRedisStore({ url: server.url }, { commandTimeoutMs: 300 });
    const k = storeKey('hung', 'entry');
    try {
      expect(await store.set(k, 'before')).toEqual({ ok: true, version: 1 });
      server.pause();
      try {
        await expect(store.get(k)).rejects.toSatisfy(
          (error) => StoreError.isInstance(error) && error.reason === 'unavailable',
        );
        await expect(store.reserve([{ key: storeKey('hung', 'count'), limit: 1 }])).rejects.toThrow(
          /did not answer within 300 ms/,
        );
      } finally {
        server.resume();
      }
      await vi.waitFor(() => store.get(k), { timeout: 20_000, interval: 50 });
      expect(await store.get(k)).toEqual({ value: 'before', version: 1 });
    } finally {
      await store.close();
    }
  }, 60_000);

  it('rejects a store over a URL nobody answers at as unavailable, without hanging', async () => {
    const down = await startRedisServer();
    await down.stop();
    const error = await createRedisStore({ url: down.url }, { commandTimeoutMs: 500 }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'unavailable', operation: 'connect' });
    expect(String((error as StoreError).message)).toMatch(/ECONNREFUSED/);
  }, 30_000);
});
