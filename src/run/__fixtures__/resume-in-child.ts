// Another process: reads a saved run state (JSON) on stdin, resumes it with the decisions given as JSON in
// argv[2], and prints what happened as JSON. Used by open-run.test.ts.
import { createToolRuntime, runToolLoop } from '../../index.js';
import { ScriptedModel } from '../../testing/index.js';
import { needsApproval, refundShop } from './refund-shop.js';

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const shop = refundShop();
const outcome = await runToolLoop({
  from: input,
  model: new ScriptedModel({ script: [{ role: 'assistant', content: 'Refunded in the child.' }] }),
  runtime: createToolRuntime({ tools: shop.tools, decide: needsApproval }),
  decisions: JSON.parse(process.argv[2] ?? '{}'),
});
process.stdout.write(
  JSON.stringify({
    type: outcome.type,
    roundTrips: outcome.roundTrips,
    refunds: shop.refunds,
    reads: shop.reads,
    pid: process.pid,
  }),
);
