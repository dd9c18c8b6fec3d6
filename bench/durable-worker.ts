// The durable bench's process: `durable-worker.ts <latency|crash|recover> <system URL> <schema> [turns] [calls]`.
// latency: the same turn of CALLS write calls on the memory store, on Redis, on the PostgreSQL store, and as
//          a DBOS workflow on PostgreSQL, side by side; prints per call microseconds and PostgreSQL queries.
// crash:   starts `turns` durable turns, each stopped once its first tool step is checkpointed, then dies.
// recover: launches (DBOS recovers them) and waits for every turn: prints the launch and the total time.
import { DBOS } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import { durableTurns } from '../dist/adapters/dbos/index.js';
import { createPostgresStore } from '../dist/adapters/postgres/index.js';
import { createRedisStore } from '../dist/adapters/redis/index.js';
import {
  createToolRuntime,
  defineTool,
  MemoryStore,
  type Model,
  runToolLoop,
  type Store,
} from '../dist/index.js';
import { median } from './measure.js';

const [mode = '', systemUrl = '', schema = '', count = '1', callsPerTurn = '10'] = process.argv.slice(2);
/** Calls per turn, one a round. */
const CALLS = Number(callsPerTurn);
const ROUNDS = 15;

// Every query a pg client sends (DBOS's and the store's): a round trip each.
let queries = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  queries += 1;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const model = (calls: number): Model => ({
  async generate(request) {
    const n = request.messages.filter((message) => message.role === 'tool').length;
    const usage = { inputTokens: 1, outputTokens: 1 };
    if (n >= calls) return { message: { role: 'assistant', content: 'done' }, usage };
    const toolCalls = [{ id: `c${n}`, name: 'record', arguments: JSON.stringify({ n }) }];
    return { message: { role: 'assistant', content: '', toolCalls }, usage };
  },
});
const record = defineTool({
  name: 'record',
  description: 'Records a number.',
  effect: 'write',
  input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  execute: ({ n }: { n: number }) => ({ recorded: n }),
});

let stopAfterFirstTool = false;
let stopped = 0;
const dbos = new Proxy(DBOS, {
  get(target, name) {
    if (name !== 'runStep') {
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    }
    return async <R>(func: () => Promise<R>, config?: { name?: string }) => {
      const value = await DBOS.runStep(func, config);
      if (stopAfterFirstTool && !DBOS.isInStep() && config?.name === 'tool:record') {
        stopped += 1;
        if (stopped === Number(count)) process.exit(1);
        await new Promise(() => {});
      }
      return value;
    };
  },
});

DBOS.setConfig({
  name: 'toolwarden-bench',
  systemDatabaseUrl: systemUrl,
  applicationVersion: 'bench',
  logLevel: 'error',
});
const postgres = await createPostgresStore({ url: systemUrl.replace(/\/[^/]*$/, '/postgres') }, { schema });
const calls = mode === 'latency' ? CALLS : 3;
const turns = durableTurns(dbos as never, {
  model: model(calls),
  runtime: { tools: [record], store: postgres },
});
const out = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const messages = [{ role: 'user' as const, content: 'record the numbers' }];

if (mode === 'recover') {
  const started = performance.now();
  await DBOS.launch();
  const launched = performance.now();
  const ids = Array.from({ length: Number(count) }, (_, i) => `s${i}:t`);
  await Promise.all(ids.map((id) => DBOS.retrieveWorkflow(id).getResult()));
  out({ recover: Number(count), launchMs: launched - started, totalMs: performance.now() - started });
} else if (mode === 'crash') {
  await DBOS.launch();
  stopAfterFirstTool = true;
  for (let i = 0; i < Number(count); i++) void turns.run({ sessionId: `s${i}`, turnId: 't', messages });
  await new Promise(() => {});
} else {
  await DBOS.launch();
  const redis = await createRedisStore({ url: 'redis://127.0.0.1:6379' }, { keyPrefix: `${schema}:` });
  const plain = (store: Store) => {
    const runtime = createToolRuntime({ tools: [record], store, concurrency: 1 });
    return (session: string) =>
      runToolLoop({ model: model(CALLS), runtime, messages, sessionId: session, turnId: 't' });
  };
  const subjects: Record<string, (session: string) => Promise<unknown>> = {
    memory: plain(new MemoryStore()),
    redis: plain(redis),
    postgres: plain(postgres),
    'dbos+postgres': (session) => turns.run({ sessionId: session, turnId: 't', messages }),
  };
  const names = Object.keys(subjects);
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const perTurnQueries: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = -2; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round + names.length) % names.length] as string;
      const before = queries;
      const started = performance.now();
      await subjects[name]?.(`${schema}-${name}-${round}`);
      if (round < 0) continue; // warm-up
      times[name]?.push(((performance.now() - started) * 1000) / CALLS);
      perTurnQueries[name]?.push(queries - before);
    }
  }
  out(
    names.map((name) => ({
      name,
      microsPerCall: median(times[name] ?? []),
      queriesPerTurn: median(perTurnQueries[name] ?? []),
    })),
  );
  await redis.close();
}
await DBOS.shutdown();
await postgres.close();
process.exit(0);
