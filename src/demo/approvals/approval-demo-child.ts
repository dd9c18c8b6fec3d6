// The demo's second process: opens the SQLite file argv[2], resumes the run argv[3] by its id with the
// decisions in argv[4] (JSON), and prints one JSON line: the outcome and how often the refund ran here, or
// the reason the resume was refused.

import { createToolRuntime } from '../../chain/runtime.js';
import { ApprovalError } from '../../core/errors/approval-error.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { approvalDemoShop } from './approval-demo-shop.js';
import { openDemoStore } from './open-demo-store.js';

const [path, runId, decisions] = process.argv.slice(2);
const store = await openDemoStore(path ?? '');
const shop = approvalDemoShop();
let report: object;
try {
  const outcome = await runToolLoop({
    from: { runId: runId ?? '' },
    runtime: createToolRuntime({ tools: shop.tools, store }),
    model: new ScriptedModel({ script: [{ role: 'assistant', content: 'Refunded 250 on A-1.' }] }),
    decisions: JSON.parse(decisions ?? '{}'),
  });
  report = { outcome: outcome.type, refunds: shop.refunds.length };
} catch (error) {
  if (!ApprovalError.isInstance(error)) throw error;
  report = { refused: error.reason, refunds: shop.refunds.length };
} finally {
  await store.close?.();
}
process.stdout.write(`${JSON.stringify({ ...report, pid: process.pid })}\n`);
