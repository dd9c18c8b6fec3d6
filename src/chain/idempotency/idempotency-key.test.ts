import { describe, expect, it } from 'vitest';
import { ToolExecutionError } from '../../core/errors/tool-execution-error.js';
import type { Message } from '../../core/message.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { MemoryStore } from '../../store/memory-store.js';
import { storeKey } from '../../store/store-key.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import type { IdempotencyKeyContext } from '../../tools/idempotency-options.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';

const history: Message[] = [{ role: 'user', content: 'charge it' }];

describe('the default key: session, tool, canonical arguments', () => {
  it('runs the same write with the same arguments once per session, across requests', async () => {
    const { tool, ledger } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool] });
    const charge = (sessionId: string, args: string) =>
      runtime.executeToolCall({ name: 'charge', arguments: args }, { sessionId });
    await charge('s1', '{"order":"A-1","cents":500}');
    // Another key order and other whitespace between tokens say the same thing.
    await charge('s1', '{ "cents": 500, "order": "A-1" }');
    expect(ledger.charges).toHaveLength(1);
    await charge('s1', '{"order":"A-1","cents":501}');
    await charge('s2', '{"order":"A-1","cents":500}');
    expect(ledger.charges).toEqual([
      { order: 'A-1', cents: 500 },
      { order: 'A-1', cents: 501 },
      { order: 'A-1', cents: 500 },
    ]);
  });

  it('keeps the record under storeKey(session, "idem", tool, sha256 of the canonical arguments)', async () => {
    const store = new MemoryStore();
    const { tool } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool], store });
    await runtime.executeToolCall({ name: 'charge', arguments: '{"order":"A-1"}' }, { sessionId: 's1' });
    const { createHash } = await import('node:crypto');
    const digest = createHash('sha256').update('{"order":"A-1"}').digest('hex');
    const entry = await store.get(storeKey('s1', 'idem', 'charge', digest));
    expect(entry?.value).toMatchObject({ state: 'completed', argumentsDigest: digest });
    // The arguments themselves are not kept: only their digest (the result is what the model saw).
    expect(Object.keys(entry?.value as object).sort()).toEqual([
      'argumentsDigest',
      'claim',
      'result',
      'state',
      'toolCallId',
      'v',
    ]);
    // Beside the records, the session keeps the claim of its latest write: a random id, nothing else.
    const claim = (entry?.value as { claim?: string } | undefined)?.claim;
    expect(claim).toMatch(/^[0-9a-f-]{36}$/);
    expect((await store.get(storeKey('s1', 'idem-latest')))?.value).toEqual({ v: 1, claim });
  });

  it('without a session, scopes the record to the turn; a session id and a turn id that are equal do not meet', async () => {
    const { tool, ledger } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool] });
    const charge = (context: { sessionId?: string; turnId?: string }) =>
      runtime.executeToolCall({ name: 'charge', arguments: { order: 'A-1' } }, context);
    await charge({ turnId: 't1' });
    await charge({ turnId: 't1' });
    expect(ledger.charges).toHaveLength(1);
    await charge({ turnId: 't2' });
    await charge({ sessionId: 't1' });
    expect(ledger.charges).toHaveLength(3);
  });

  it("in a loop without a session or a turn, scopes the record to the run: its rounds, not another run's", async () => {
    const { tool, ledger } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool] });
    const call = assistantWithCalls([{ name: 'charge', arguments: { order: 'A-1' } }]);
    const run = () =>
      runToolLoop({
        runtime,
        messages: history,
        model: new ScriptedModel({ script: [call, call, { role: 'assistant', content: 'Charged.' }] }),
      });
    await run();
    expect(ledger.charges).toHaveLength(1);
    await run();
    expect(ledger.charges).toHaveLength(2);
  });

  it('without a session or a turn, deduplicates only the identical writes of one response', async () => {
    const { tool, ledger } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool] });
    const response = assistantWithCalls([
      { name: 'charge', arguments: { order: 'A-1' } },
      { name: 'charge', arguments: { order: 'A-1' } },
    ]);
    const first = await runtime.executeToolCalls({ messages: history, response });
    expect(ledger.charges).toHaveLength(1);
    expect(first.results.map((result) => result.replayOf)).toEqual([undefined, 'call_1']);
    await runtime.executeToolCalls({ messages: history, response });
    expect(ledger.charges).toHaveLength(2);
    expect(runtime.policy.store).toBeInstanceOf(MemoryStore);
    expect((runtime.policy.store as MemoryStore).size).toBe(0);
  });

  it('idempotency: false runs every call', async () => {
    const { tool, ledger } = chargeTool({ idempotency: false });
    const runtime = createToolRuntime({ tools: [tool] });
    for (let i = 0; i < 3; i++) {
      await runtime.executeToolCall({ name: 'charge', arguments: { order: 'A-1' } }, { sessionId: 's' });
    }
    expect(ledger.charges).toHaveLength(3);
  });
});

describe("a tool's own key", () => {
  it('makes calls with the same key one action, whatever else their arguments say', async () => {
    const seen: IdempotencyKeyContext[] = [];
    const { tool, ledger } = chargeTool({
      idempotency: {
        key: (args, context) => {
          seen.push(context);
          return `order:${args.order}`;
        },
      },
    });
    const runtime = createToolRuntime({ tools: [tool] });
    const charge = (args: object) =>
      runtime.executeToolCall(
        { name: 'charge', arguments: args },
        { sessionId: 's', turnId: 't', data: { tenant: 'acme' } },
      );
    await charge({ order: 'A-1', cents: 500 });
    await charge({ order: 'A-1', cents: 500 });
    await charge({ order: 'B-2', cents: 500 });
    expect(ledger.charges.map((charge) => charge.order)).toEqual(['A-1', 'B-2']);
    expect(seen[0]).toEqual({ toolName: 'charge', sessionId: 's', turnId: 't', data: { tenant: 'acme' } });
  });

  it('that throws or returns no string is a defect of the tool: fatal, and the tool does not run', async () => {
    for (const key of [
      () => {
        throw new Error('no key');
      },
      () => '',
      () => 42 as unknown as string,
    ]) {
      const { tool, ledger } = chargeTool({ idempotency: { key } });
      const runtime = createToolRuntime({ tools: [tool] });
      const outcome = await runtime.executeToolCall(
        { name: 'charge', arguments: { order: 'A' } },
        { sessionId: 's' },
      );
      expect(outcome).toMatchObject({ isError: true, code: 'INTERNAL_ERROR', errorClass: 'fatal' });
      expect(ledger.charges).toHaveLength(0);
      await expect(
        runtime.executeToolCalls({
          messages: history,
          response: assistantWithCalls([{ name: 'charge', arguments: { order: 'A' } }]),
          sessionId: 's',
        }),
      ).rejects.toBeInstanceOf(ToolExecutionError);
    }
  });
});
