// Another process: opens the store named in argv[2] (JSON), resumes the run argv[3] by its id with the
// decisions in argv[4] (JSON), and prints what happened as JSON: the outcome and what its tools did, or the
// refusal. Used by approvals-across-processes.test.ts.

import { approvalDemoShop as approvalShop } from '../../demo/approvals/approval-demo-shop.js';
import { ApprovalError, createToolRuntime, runToolLoop } from '../../index.js';
import { openStoreSpec } from '../../store/__fixtures__/open-store-spec.js';
import { ScriptedModel } from '../../testing/index.js';

const [spec, runId, decisions] = process.argv.slice(2);
const store = await openStoreSpec(JSON.parse(spec ?? '{}'));
const shop = approvalShop();
let report: object;
try {
  const outcome = await runToolLoop({
    from: { runId: runId ?? '' },
    runtime: createToolRuntime({ tools: shop.tools, store }),
    model: new ScriptedModel({ script: [{ role: 'assistant', content: 'Refunded in another process.' }] }),
    decisions: JSON.parse(decisions ?? '{}'),
  });
  report = { type: outcome.type, refunds: shop.refunds, reads: shop.reads };
} catch (error) {
  if (!ApprovalError.isInstance(error)) throw error;
  report = { refused: error.reason, refunds: shop.refunds };
}
await store.close?.();
process.stdout.write(`${JSON.stringify({ ...report, pid: process.pid })}\n`);
