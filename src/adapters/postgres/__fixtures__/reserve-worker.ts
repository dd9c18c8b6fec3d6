// A second process for the PostgreSQL store's cross-process test: `node --import tsx reserve-worker.ts <url>
// <schema> <key> <limit> <calls>` opens a store, writes `ready`, waits for a line on stdin (so both workers
// start at once), makes <calls> concurrent reservations, each after a random 0-50 ms, and writes how many
// succeeded.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPostgresStore } from '../postgres-store.js';

const [url = '', schema = '', key = '', limit = '0', calls = '0'] = process.argv.slice(2);
const store = await createPostgresStore({ url }, { schema });
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
