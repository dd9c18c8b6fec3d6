// A process that dies between running a write and recording it: opens the store named in argv[2] (JSON) and
// calls a charge tool in mode argv[3] (`default`: none given) with a lease of argv[4] ms, whose execute appends a line to the ledger
// file argv[5] (the side effect) and then kills its own process with SIGKILL before it can return. Used by
// crash.test.ts.
import { appendFileSync } from 'node:fs';
import { createToolRuntime } from '../../../index.js';
import { openStoreSpec } from '../../../store/__fixtures__/open-store-spec.js';
import type { IdempotencyMode } from '../../../tools/idempotency-options.js';
import { chargeTool } from './charge-tool.js';

const [spec, mode, leaseMs, ledger] = process.argv.slice(2);
const store = await openStoreSpec(JSON.parse(spec ?? '{}'));
const { tool } = chargeTool({
  idempotency: {
    leaseMs: Number(leaseMs),
    ...(mode === 'default' ? {} : { mode: mode as IdempotencyMode }),
  },
  run: () => {
    appendFileSync(ledger ?? '', 'charged\n');
    process.kill(process.pid, 'SIGKILL');
  },
});
await createToolRuntime({ store, tools: [tool] }).executeToolCall(
  { name: 'charge', arguments: { order: 'A-1' } },
  { sessionId: 'crashed' },
);
