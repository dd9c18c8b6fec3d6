// A process serving one session: opens the store named in argv[2] (JSON), says `ready`, waits for the start
// time on stdin, then makes argv[4] concurrent identical calls to one write tool in session argv[3], and
// prints how many the tool ran, how many were replays, and the codes of the rest, as JSON. Used by
// exactly-once.test.ts: two instances serving one session.
import { createToolRuntime } from '../../../index.js';
import { awaitStart } from '../../../store/__fixtures__/await-start.js';
import { openStoreSpec } from '../../../store/__fixtures__/open-store-spec.js';
import { chargeTool } from './charge-tool.js';
import { tally } from './tally.js';

const [spec, sessionId, count] = process.argv.slice(2);
const store = await openStoreSpec(JSON.parse(spec ?? '{}'));
// The charge takes a while, so the other process's calls arrive while it runs.
const { tool, ledger } = chargeTool({
  run: () => new Promise((resolve) => setTimeout(() => resolve('charged'), 200)),
});
const runtime = createToolRuntime({ store, tools: [tool] });
await awaitStart();
const outcomes = await Promise.all(
  Array.from({ length: Number(count) }, () =>
    runtime.executeToolCall({ name: 'charge', arguments: { order: 'A-1' } }, { sessionId: sessionId ?? 's' }),
  ),
);
await store.close?.();
process.stdout.write(`${JSON.stringify({ executed: ledger.charges.length, ...tally(outcomes) })}\n`);
