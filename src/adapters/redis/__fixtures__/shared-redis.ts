import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';

/** The Redis the tests share (CI's `.ci/run` starts it when it is not running). */
export const SHARED_REDIS_URL = 'redis://127.0.0.1:6379';

export type AdminClient = ReturnType<typeof createClient>;

/**
 * A client to the shared Redis, for looking behind the store's back; fails loudly, saying how to start
 * Redis, when nothing answers at 127.0.0.1:6379: the Redis tests are never skipped.
 */
export async function connectSharedRedis(): Promise<AdminClient> {
  const client = createClient({
    url: SHARED_REDIS_URL,
    socket: { reconnectStrategy: false, connectTimeout: 5_000 },
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw new Error(
      'The Redis store tests need Redis at 127.0.0.1:6379 and nothing answers there. Start it with: ' +
        'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no ' +
        '(CI: .ci/run starts it)',
      { cause: error },
    );
  }
}

/** A key prefix of this run's own (`tw-test-<uuid>:`), so runs on the shared server never meet. */
export function testKeyPrefix(): string {
  return `tw-test-${randomUUID()}:`;
}

/** Deletes every key under `prefix` (SCAN, never KEYS: the server is shared). */
export async function deleteKeysUnder(client: AdminClient, prefix: string): Promise<void> {
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    if (keys.length > 0) await client.del(keys);
  }
}
