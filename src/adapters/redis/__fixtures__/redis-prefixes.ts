import { connectSharedRedis, deleteKeysUnder, testKeyPrefix } from './shared-redis.js';

/** Key prefixes of a test file's own on the shared Redis, and the cleanup that deletes every key under them. */
export function redisPrefixes(): { next(): string; cleanup(): Promise<void> } {
  const given: string[] = [];
  return {
    next: () => {
      const prefix = testKeyPrefix();
      given.push(prefix);
      return prefix;
    },
    cleanup: async () => {
      if (given.length === 0) return;
      const client = await connectSharedRedis();
      try {
        for (const prefix of given) await deleteKeysUnder(client, prefix);
      } finally {
        client.destroy();
      }
    },
  };
}
