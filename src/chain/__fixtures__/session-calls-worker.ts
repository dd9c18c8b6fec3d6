// A process serving one session: opens the store named in argv[2] (JSON), says `ready`, waits for the start
// time on stdin, then makes argv[5] concurrent calls to one tool (argv[6]: `read`, the default, or `write`,
// an idempotent write whose calls of this process all differ) in session argv[3], turn argv[4], and prints
// how many the tool ran and the codes of the rest, as JSON. Used by cross-process-limits.test.ts.
import { createToolRuntime, defineTool } from '../../index.js';
import { awaitStart } from '../../store/__fixtures__/await-start.js';
import { openStoreSpec } from '../../store/__fixtures__/open-store-spec.js';

const [spec, sessionId, turnId, count, kind = 'read'] = process.argv.slice(2);
const effect = kind === 'write' ? 'write' : 'read';
const store = await openStoreSpec(JSON.parse(spec ?? '{}'));
let executed = 0;
const runtime = createToolRuntime({
  store,
  tools: [
    defineTool({
      name: 'lookup',
      description: 'Looks an order up.',
      effect,
      execute: async () => ({ found: ++executed }),
    }),
  ],
});
await awaitStart();
const outcomes = await Promise.all(
  Array.from({ length: Number(count) }, (_, i) =>
    runtime.executeToolCall(
      { name: 'lookup', arguments: { id: `o-${i}`, ...(effect === 'write' ? { by: process.pid } : {}) } },
      { sessionId: sessionId ?? 's', turnId: turnId ?? 't' },
    ),
  ),
);
const codes: Record<string, number> = {};
for (const outcome of outcomes) {
  if (outcome.type === 'answered' && outcome.isError)
    codes[outcome.code ?? '?'] = (codes[outcome.code ?? '?'] ?? 0) + 1;
}
await store.close?.();
process.stdout.write(`${JSON.stringify({ executed, codes })}\n`);
