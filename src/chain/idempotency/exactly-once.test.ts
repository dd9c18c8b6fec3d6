import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../../core/message.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { runTogether, startStoreWorker } from '../../store/__fixtures__/start-store-worker.js';
import { storesUnderTest } from '../../store/__fixtures__/stores-under-test.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';
import { tally } from './__fixtures__/tally.js';
import { REPLAYED_SUCCESS_TEXT } from './idempotency-answers.js';

// The evidence that a write runs exactly once however it is attempted twice: the model repeats it in one
// response, in later rounds, in a later request (a retry of the request); two instances serve one session.
// The tool counts its executions. The same tests over each store.

const worker = fileURLToPath(new URL('./__fixtures__/write-worker.ts', import.meta.url));
const { stores, open, cleanup } = storesUnderTest('exactly-once');
afterAll(cleanup);

const charge = { name: 'charge', arguments: { order: 'A-1' } };
const user: Message[] = [{ role: 'user', content: 'Charge order A-1.' }];
const answer = { role: 'assistant' as const, content: 'Charged.' };

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
      runtime: createToolRuntime({ tools: [tool], store: await open(specOf()) }),
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

  it.each([
    ['a new write', false],
    ['a write whose record another write has since closed (it runs again, once)', true],
  ])(
    'two instances serving one session, ten concurrent calls each: %s',
    async (_what, closed) => {
      const spec = specOf();
      const store = await open(spec);
      if (closed) {
        // Before: the same charge ran, then another write; so the calls below are a new write, run once more.
        const { tool } = chargeTool();
        const before = createToolRuntime({ tools: [tool], store });
        await before.executeToolCall(charge, { sessionId: 'shared' });
        await before.executeToolCall(
          { name: 'charge', arguments: { order: 'B-2' } },
          { sessionId: 'shared' },
        );
      }
      type Seen = { executed: number; replayed: number; codes: Record<string, number> };
      let seen: Seen[];
      if (spec === undefined) {
        // One process holds a MemoryStore: two runtimes sharing it stand for the two instances.
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
    },
    60_000,
  );
});
