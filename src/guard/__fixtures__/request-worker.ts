// One request of a session, served by its own process: opens the store named in argv[2] (JSON) and runs a
// model that asks for getOrder({id:'A'}) argv[4] times, then answers; prints the outcome as JSON. Used by
// cross-process-guard.test.ts: the loop spans requests served by different processes.
import { createToolRuntime, defineTool, runToolLoop } from '../../index.js';
import { openStoreSpec } from '../../store/__fixtures__/open-store-spec.js';
import { assistantWithCalls, ScriptedModel } from '../../testing/index.js';

const [spec, sessionId, repeats] = process.argv.slice(2);
const store = await openStoreSpec(JSON.parse(spec ?? '{}'));
const getOrder = defineTool({
  name: 'getOrder',
  description: 'An order by id.',
  effect: 'read',
  execute: async () => ({ code: 0 }),
});
const same = assistantWithCalls([{ name: 'getOrder', arguments: { id: 'A' } }]);
const outcome = await runToolLoop({
  model: new ScriptedModel({
    script: [...Array(Number(repeats)).fill(same), { role: 'assistant', content: 'Order A: code 0.' }],
  }),
  runtime: createToolRuntime({ tools: [getOrder], store }),
  messages: [{ role: 'user', content: 'Where is order A?' }],
  sessionId: sessionId ?? 's',
});
await store.close?.();
process.stdout.write(
  `${JSON.stringify({
    type: outcome.type,
    reason: outcome.type === 'stopped' ? outcome.reason : undefined,
    roundTrips: outcome.roundTrips,
    pid: process.pid,
  })}\n`,
);
