// A second process for the Redis store's cross-process test: `node --import tsx reserve-worker.ts <url>
// <keyPrefix> <key> <limit> <calls>` opens a store, writes `ready`, waits for a line on stdin (so both
// workers start at once), makes <calls> concurrent reservations and writes how many succeeded. Each call
// starts after a random 0-50 ms: sent at once, one client's calls go out as one pipeline that Redis runs
// back to back, and the other process would only ever find the counter full.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRedisStore } from '../redis-store.js';

const [url = '', keyPrefix = '', key = '', limit = '0', calls = '0'] = process.argv.slice(2);
const store = await createRedisStore({ url }, { keyPrefix });
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const results = await Promise.all(
  Array.from({ length: Number(calls) }, async () => {
    await sleep(Math.random() * 50);
    return store.reserve([{ key, limit: Number(limit) }]);
  }),
);
await store.close();
process.stdout.write(`${JSON.stringify({ reserved: results.filter((result) => result.ok).length })}\n`);
process.stdin.destroy();
