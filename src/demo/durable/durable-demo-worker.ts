// The worker of `toolwarden demo durable`: `durable-demo-worker <start|recover> <system database URL>
// <store URL> <schema>`. Writes one JSON line per thing it does to stdout, at once (the parent kills it):
// `{ ran }` for a model call or tool execution, `{ checkpointed }` for a step DBOS recorded, and at the end
// `{ outcome, steps }`. start: runs the turn, and after the refund's step is checkpointed says `{ kill: true }`
// and waits to be killed. recover: DBOS recovers the turn on launch; it waits for its outcome.
import { writeSync } from 'node:fs';
import type { DbosWorkflows } from '../../adapters/dbos/dbos-workflows.js';
import { durableTurns } from '../../adapters/dbos/durable-turns.js';
import { createPostgresStore } from '../../adapters/postgres/postgres-store.js';
import { durableDemoModel, durableDemoTools } from './durable-demo-shop.js';

const [mode = '', systemUrl = '', storeUrl = '', schema = ''] = process.argv.slice(2);
const say = (value: unknown) => writeSync(1, `${JSON.stringify(value)}\n`);
const { DBOS } = await import('@dbos-inc/dbos-sdk');

const steps: DbosWorkflows = {
  registerWorkflow: (func, config) => DBOS.registerWorkflow(func, config),
  startWorkflow: (target, params) => DBOS.startWorkflow(target, params),
  getWorkflowStatus: (id) => DBOS.getWorkflowStatus(id),
  setEvent: (key, value) => DBOS.setEvent(key, value),
  recv: (topic, options) => DBOS.recv(topic, options),
  getEvent: (id, key, timeout) => DBOS.getEvent(id, key, timeout),
  send: (id, message, topic, key) => DBOS.send(id, message, topic, key),
  async runStep(func, config) {
    const value = await DBOS.runStep(func, config);
    if (DBOS.isInStep()) return value;
    say({ checkpointed: config?.name });
    if (mode === 'start' && config?.name === 'tool:refundOrder') {
      say({ kill: true });
      await new Promise(() => {});
    }
    return value;
  },
};

DBOS.setConfig({
  name: 'toolwarden-demo-durable',
  systemDatabaseUrl: systemUrl,
  applicationVersion: 'demo-1',
  logLevel: 'error',
});
const store = await createPostgresStore({ url: storeUrl }, { schema });
const turns = durableTurns(steps, {
  model: durableDemoModel(() => say({ ran: 'model' })),
  runtime: { tools: durableDemoTools((name) => say({ ran: name })), store },
});
await DBOS.launch();
const turn = { sessionId: 'demo', turnId: 'refund-A-1' };
const outcome =
  mode === 'start'
    ? await turns.run({
        ...turn,
        messages: [{ role: 'user', content: 'Refund order A-1 and tell the customer.' }],
      })
    : await DBOS.retrieveWorkflow<Awaited<ReturnType<typeof turns.run>>>(turns.workflowId(turn)).getResult();
const recorded = await DBOS.listWorkflowSteps(turns.workflowId(turn));
say({
  outcome: { type: outcome.type, text: 'text' in outcome ? outcome.text : '' },
  steps: recorded?.map((step) => step.name),
});
await DBOS.shutdown();
await store.close();
