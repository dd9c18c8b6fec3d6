// One of the processes of the two-process test: opens the store on the file it is given, prints `ready`,
// reads from stdin the moment (epoch milliseconds) at which to start, then makes <calls> reservations
// against each of <counters> counters, all pending at once. Call i of each counter fires i/SPREAD ms after
// the start, so the calls of both processes meet. Prints, as one JSON line, how many reservations of each
// counter succeeded, how many were refused, and the errors of those that failed.
//   node --import tsx reserve-worker.ts <path> <session> <counters> <calls> <limit>
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { storeKey } from '../../../store/store-key.js';
import { createSqliteStore } from '../sqlite-store.js';

const SPREAD = 4;
const [path = '', session = '', counters = '0', calls = '0', limit = '0'] = process.argv.slice(2);
const store = await createSqliteStore({ path });
process.stdout.write('ready\n');
const [startAt] = (await once(process.stdin, 'data')) as [Buffer];
await sleep(Math.max(0, Number(startAt.toString()) - Date.now()));
const perCounter = await Promise.all(
  Array.from({ length: Number(counters) }, (_, counter) =>
    Promise.allSettled(
      Array.from({ length: Number(calls) }, async (_, i) => {
        await sleep(Math.floor(i / SPREAD));
        return store.reserve([{ key: storeKey(session, `calls-${counter}`), limit: Number(limit) }]);
      }),
    ),
  ),
);
await store.close();
const results = perCounter.flat();
process.stdout.write(
  `${JSON.stringify({
    reserved: perCounter.map(
      (of) => of.filter((result) => result.status === 'fulfilled' && result.value.ok).length,
    ),
    refused: results.filter((result) => result.status === 'fulfilled' && !result.value.ok).length,
    failed: results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : [])),
  })}\n`,
);
