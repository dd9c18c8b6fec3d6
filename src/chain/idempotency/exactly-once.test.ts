import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { redisPrefixes } from '../../adapters/redis/__fixtures__/redis-prefixes.js';
import { SHARED_REDIS_URL } from '../../adapters/redis/__fixtures__/shared-redis.js';
import type { Message } from '../../messages/message.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { openStoreSpec, type StoreSpec } from '../../store/__fixtures__/open-store-spec.js';
import { runTogether, startStoreWorker } from '../../store/__fixtures__/start-store-worker.js';
import { MemoryStore } from '../../store/memory-store.js';
import type { Store } from '../../store/store.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { createToolRuntime } from '../tool-runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';
import { tally } from './__fixtures__/tally.js';
import { REPLAYED_SUCCESS_TEXT } from './idempotency-answers.js';

// The evidence that a write runs exactly once however it is attempted twice: the model repeats it in one
// response, in later rounds, in a later request (a retry of the request); two instances serve one session.
// The tool counts its executions. The same tests over each store.

const worker = fileURLToPath(new URL('./__fixtures__/write-worker.ts', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'tw-exactly-once-'));
const prefixes = redisPrefixes();
const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) await store.close?.();
  rmSync(folder, { recursive: true, force: true });
  await prefixes.cleanup();
});

let files = 0;
const stores: readonly [string, () => StoreSpec | undefined][] = [
  ['memory', () => undefined],
  ['SQLite', () => ({ kind: 'sqlite', path: join(folder, `writes-${++files}.db`) })],
  ['Redis', () => ({ kind: 'redis', url: SHARED_REDIS_URL, keyPrefix: prefixes.next() })],
];

const charge = { name: 'charge', arguments: { order: 'A-1' } };
const user: Message[] = [{ role: 'user', content: 'Charge order A-1.' }];
const answer = { role: 'assistant' as const, content: 'Charged.' };

async function open(spec: StoreSpec | undefined): Promise<Store> {
  const store = spec === undefined ? new MemoryStore() : await openStoreSpec(spec);
  opened.push(store);
  return store;
}

describe.each(stores)('a write attempted many times runs exactly once, over %s', (_name, specOf) => {
  it.each([1, 4])('identical calls in one response (writeConcurrency %i)', async (writeConcurrency) => {
    const { tool, ledger } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool], store: await open(specOf()), writeConcurrency });
    const response = assistantWithCalls(Array.from({ length: 5 }, () => charge));
    const done = await runtime.executeToolCalls({ messages: user, response, sessionId: 's' });
    expect(ledger.charges).toHaveLength(1);
    expect(done.results.filter((result) => result.replayOf === 'call_1')).toHaveLength(4);
  });

  it('the same call in three rounds of one request', async () => {
    const { tool, ledger } = chargeTool();
    const model = new ScriptedModel({ script: [...Array(3).fill(assistantWithCalls([charge])), answer] });
    const outcome = await runToolLoop({
      model,
      tools: [tool],
      store: await open(specOf()),
      messages: user,
      sessionId: 's',
    });
    expect(ledger.charges).toHaveLength(1);
    const told = outcome.messages.flatMap((message) => (message.role === 'tool' ? [message.content] : []));
    expect(told).toHaveLength(3);
    expect(told.slice(1).every((content) => content.startsWith(REPLAYED_SUCCESS_TEXT))).toBe(true);
  });

  it('the same call in two requests of one session (a retried request)', async () => {
    const { tool, ledger } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool], store: await open(specOf()) });
    for (let request = 0; request < 2; request++) {
      const model = new ScriptedModel({ script: [assistantWithCalls([charge]), answer] });
      await runToolLoop({ model, runtime, messages: user, sessionId: 'session-1' });
    }
    expect(ledger.charges).toHaveLength(1);
  });

  it('two instances serving one session, ten concurrent calls each', async () => {
    const spec = specOf();
    type Seen = { executed: number; replayed: number; codes: Record<string, number> };
    let seen: Seen[];
    if (spec === undefined) {
      // One process holds a MemoryStore: two runtimes sharing it stand for the two instances.
      const store = await open(undefined);
      const instances = [chargeTool(), chargeTool()].map(({ tool, ledger }) => ({
        ledger,
        runtime: createToolRuntime({ tools: [tool], store }),
      }));
      seen = await Promise.all(
        instances.map(async ({ runtime, ledger }) => {
          const outcomes = await Promise.all(
            Array.from({ length: 10 }, () => runtime.executeToolCall(charge, { sessionId: 'shared' })),
          );
          return { executed: ledger.charges.length, ...tally(outcomes) };
        }),
      );
    } else {
      const start = () => startStoreWorker(worker, [JSON.stringify(spec), 'shared', '10']);
      seen = await runTogether<Seen>(await Promise.all([start(), start()]));
    }
    expect(seen.reduce((sum, instance) => sum + instance.executed, 0)).toBe(1);
    expect(seen.reduce((sum, instance) => sum + instance.replayed, 0)).toBe(19);
    expect(seen.map((instance) => instance.codes)).toEqual([{}, {}]);
  }, 60_000);
});
