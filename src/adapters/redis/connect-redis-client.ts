import type { createClient } from 'redis';
import { withTimeout } from '../../chain/with-timeout.js';
import { DEFAULT_REDIS_RECONNECT_MAX_DELAY_MS } from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { StoreError } from '../../core/errors/store-error.js';
import { toRedisStoreError } from './redis-store-error.js';

/** The client a Redis store makes for itself from a URL. */
export type OwnRedisClient = ReturnType<typeof createClient>;

/**
 * node-redis, loaded when a store connects to a URL. It is an optional peer dependency: importing
 * `toolwarden/redis` works without it (a store over a client passed in never loads it), and connecting
 * says how to install it.
 */
async function loadCreateClient(): Promise<typeof createClient> {
  try {
    return (await import('redis')).createClient;
  } catch (error) {
    if ((error as { code?: unknown } | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') {
      throw toRedisStoreError(error, 'connect');
    }
    throw new StoreError({
      reason: 'unavailable',
      operation: 'connect',
      message: 'the Redis client node-redis is not installed: npm install redis@5',
      cause: error,
    });
  }
}

/**
 * A client to `url`, connected within `timeoutMs` (else `StoreError`, `unavailable`, operation `connect`,
 * with the last connection error as the cause). It does not queue commands while disconnected (they
 * reject at once, so no call waits for an outage to end) and reconnects forever with a bounded backoff
 * (`DEFAULT_REDIS_RECONNECT_MAX_DELAY_MS`), so the store works again when Redis is back.
 */
export async function connectRedisClient(url: string, timeoutMs: number): Promise<OwnRedisClient> {
  const create = await loadCreateClient();
  let client: OwnRedisClient;
  try {
    client = create({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: timeoutMs,
        reconnectStrategy: (retries: number) =>
          Math.min(50 * 2 ** Math.min(retries, 16), DEFAULT_REDIS_RECONNECT_MAX_DELAY_MS) +
          Math.floor(Math.random() * 100),
      },
    });
  } catch (error) {
    throw new InvalidOptionsError({
      option: 'url',
      message: `is not a Redis URL (${(error as Error).message})`,
    });
  }
  // Without a listener, an 'error' event (each failed reconnect) would crash the process; the failures
  // reach the caller as StoreError from the calls instead. The last one explains a first connection
  // that does not come (a refused connection, a wrong password).
  let lastError: unknown;
  client.on('error', (error: unknown) => {
    lastError = error;
  });
  try {
    await withTimeout(() => client.connect(), {
      timeoutMs,
      timeoutError: () => lastError ?? new Error(`no connection within ${timeoutMs} ms`),
      signal: undefined,
      abort: () => {},
    });
    return client;
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw toRedisStoreError(error, 'connect');
  }
}

/** Closes gracefully (pending replies arrive first), or drops the connection when that does not end in time. */
export async function quitRedisClient(client: OwnRedisClient, timeoutMs: number): Promise<void> {
  if (!client.isOpen) return;
  try {
    await withTimeout(() => client.close(), {
      timeoutMs,
      timeoutError: () => new Error('close did not end in time'),
      signal: undefined,
      abort: () => {},
    });
  } catch {
    if (client.isOpen) client.destroy();
  }
}
