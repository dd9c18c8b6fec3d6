// A process of the durable-turn crash test: `node --import tsx durable-worker.ts <mode> <database URL>
// <effects file>`. It configures DBOS on the database, registers one turn (a model that asks for `charge`,
// then `email`, then answers), launches, and:
//   start:   runs the turn, and dies (process.exit(1)) when the model is asked for the second time: after
//            the charge step was checkpointed, before the model's second answer was;
//   recover: lets DBOS recover the turn on launch, waits for its outcome and prints it as one JSON line.
// Every tool execution and model call appends `<what> <pid>` to the effects file. With a schema, the runtime
// keeps its records (idempotency, limits) in a PostgreSQL store under it, shared by the processes.
import { appendFileSync } from 'node:fs';
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { Model } from '../../../core/model.js';
import { defineTool } from '../../../tools/define-tool.js';
import { createPostgresStore } from '../../postgres/postgres-store.js';
import { durableTurns } from '../durable-turns.js';

const [mode = '', url = '', effects = '', schema = ''] = process.argv.slice(2);
const note = (what: string) => appendFileSync(effects, `${what} ${process.pid}\n`);

const model: Model = {
  async generate(request) {
    const answered = request.messages.filter((message) => message.role === 'tool').length;
    note(`model-${answered}`);
    if (answered === 1 && mode === 'start') process.exit(1);
    if (answered < 2) {
      const name = answered === 0 ? 'charge' : 'email';
      return {
        message: {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: `call-${name}`, name, arguments: JSON.stringify({ to: 'A-1' }) }],
        },
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    }
    return {
      message: { role: 'assistant', content: 'charged and emailed' },
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  },
};

const tool = (name: string) =>
  defineTool({
    name,
    description: `${name} someone`,
    effect: 'write',
    input: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    execute: ({ to }: { to: string }) => {
      note(name);
      return `${name} ${to} done`;
    },
  });

DBOS.setConfig({ name: 'toolwarden-durable-test', systemDatabaseUrl: url, applicationVersion: 'test-1' });
const store =
  schema === ''
    ? undefined
    : await createPostgresStore({ url: url.replace(/\/[^/]*$/, '/postgres') }, { schema });
const tools = [tool('charge'), tool('email')];
const turns = durableTurns(DBOS, { model, runtime: store === undefined ? { tools } : { tools, store } });
await DBOS.launch();
const turn = { sessionId: 'session-1', turnId: 'turn-1' };
if (mode === 'start') {
  await turns.run({ ...turn, messages: [{ role: 'user', content: 'charge A-1 and email them' }] });
  process.stderr.write('the start run was expected to die\n');
  process.exit(2);
}
const outcome = await DBOS.retrieveWorkflow<{ type: string; text?: string; toolCalls: number }>(
  turns.workflowId(turn),
).getResult();
const steps = await DBOS.listWorkflowSteps(turns.workflowId(turn));
process.stdout.write(
  `${JSON.stringify({ type: outcome.type, text: outcome.text, steps: steps?.map((step) => step.name) })}\n`,
);
await DBOS.shutdown();
await store?.close();
process.exit(0);
