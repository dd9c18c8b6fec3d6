import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../core/errors/store-error.js';
import type { Message } from '../core/message.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { storeWith } from '../testing/store-with.js';
import { defineTool } from '../tools/define-tool.js';
import { emptyTurnCounts } from './limits.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };

function countedTools() {
  const runs = { read: 0, write: 0 };
  const tools = [
    defineTool({
      name: 'lookup',
      description: 'Looks an order up.',
      effect: 'read',
      input: { type: 'object', properties: { id: { type: 'string' } } },
      execute: async () => ({ found: ++runs.read }),
    }),
    defineTool({
      name: 'refund',
      description: 'Refunds an order.',
      effect: 'write',
      input: { type: 'object', properties: { id: { type: 'string' } } },
      execute: async () => ({ refunded: ++runs.write }),
    }),
  ];
  return { tools, runs };
}

/** A store that is down: every call rejects as an outage. */
const downStore = () => {
  const outage = (operation: string) =>
    Promise.reject(new StoreError({ reason: 'unavailable', operation, message: 'ECONNREFUSED' }));
  return storeWith({
    get: () => outage('get'),
    set: () => outage('set'),
    reserve: () => outage('reserve'),
  });
};

describe('session limits, counted in the store', () => {
  it('hold across requests of one session, and not for another session', async () => {
    const { tools, runs } = countedTools();
    const runtime = createToolRuntime({ tools, limits: { perSession: { perTool: 3 } } });
    const call = (sessionId: string) =>
      runtime.executeToolCall({ name: 'lookup', arguments: { id: 'A' } }, { sessionId });
    const first = [await call('s1'), await call('s1')];
    const second = [await call('s1'), await call('s1')];
    expect([...first, ...second].map((outcome) => outcome.type === 'answered' && outcome.isError)).toEqual([
      false,
      false,
      false,
      true,
    ]);
    const refused = second[1];
    expect(refused).toMatchObject({ code: 'TOOL_CALL_LIMIT' });
    expect(refused?.type === 'answered' && refused.content).toContain(
      "Tool call limit (3) exceeded for tool 'lookup' in this session",
    );
    expect(await call('s2')).toMatchObject({ isError: false });
    expect(runs.read).toBe(4);
  });

  it('a total for the session stops every tool once reached', async () => {
    const { tools, runs } = countedTools();
    const runtime = createToolRuntime({ tools, limits: { perSession: { total: 2 } } });
    const outcomes = [];
    for (const name of ['lookup', 'refund', 'lookup']) {
      outcomes.push(await runtime.executeToolCall({ name, arguments: { id: 'A' } }, { sessionId: 's' }));
    }
    expect(outcomes.map((outcome) => outcome.type === 'answered' && outcome.code)).toEqual([
      undefined,
      undefined,
      'TOOL_CALL_LIMIT',
    ]);
    expect(runs).toEqual({ read: 1, write: 1 });
  });

  it('a turn shared by two runtimes over one store runs exactly 40 of 100 concurrent calls (the per-tool default)', async () => {
    const { tools, runs } = countedTools();
    const store = new MemoryStore();
    const runtimes = [createToolRuntime({ tools, store }), createToolRuntime({ tools, store })];
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (runtimes[i % 2] ?? runtimes[0])?.executeToolCall(
          { name: 'lookup', arguments: { id: `o-${i}` } },
          { sessionId: 's', turnId: 't1' },
        ),
      ),
    );
    expect(runs.read).toBe(40);
    const refused = outcomes.filter((outcome) => outcome?.type === 'answered' && outcome.isError);
    expect(refused).toHaveLength(60);
    for (const outcome of refused) expect(outcome).toMatchObject({ code: 'TOOL_CALL_LIMIT' });
  });

  it('counts an idempotent write with its claim: a duplicate (a replay) is not counted, and the limit holds', async () => {
    const { tools, runs } = countedTools();
    const runtime = createToolRuntime({ tools, limits: { perSession: { perTool: 2 } } });
    const send = (id: string) =>
      runtime.executeToolCall({ name: 'refund', arguments: { id } }, { sessionId: 's' });
    const outcomes = [await send('a'), await send('a'), await send('b'), await send('c')];
    expect(
      outcomes.map((outcome) => (outcome.type === 'answered' ? (outcome.code ?? 'ok') : outcome.type)),
    ).toEqual(['ok', 'ok', 'ok', 'TOOL_CALL_LIMIT']);
    expect(outcomes[1]).toMatchObject({ result: { replayOf: expect.any(String) } });
    expect(runs.write).toBe(2);
  });

  it('a write refused by a limit its claim found stops the loop as TOOL_CALL_LIMIT, and throws from executeToolCalls', async () => {
    const { tools, runs } = countedTools();
    const runtime = createToolRuntime({ tools, limits: { perSession: { perTool: 1 } } });
    await runtime.executeToolCall({ name: 'refund', arguments: { id: 'a' } }, { sessionId: 's' });
    const outcome = await runToolLoop({
      model: new ScriptedModel({
        script: [
          assistantWithCalls([{ name: 'refund', arguments: { id: 'b' } }]),
          { role: 'assistant', content: 'Done.' },
        ],
      }),
      runtime,
      sessionId: 's',
      messages: [user],
    });
    expect(outcome).toMatchObject({
      type: 'stopped',
      reason: 'TOOL_CALL_LIMIT',
      evidence: { kind: 'limit', scope: 'session-per-tool', tool: 'refund', limit: 1 },
    });
    await expect(
      runtime.executeToolCalls({
        messages: [user],
        response: assistantWithCalls([{ name: 'refund', arguments: { id: 'c' } }]),
        sessionId: 's',
      }),
    ).rejects.toThrow("Tool call limit (1) exceeded for tool 'refund' in this session");
    expect(runs.write).toBe(1);
  });

  it('counts nothing for calls without a session (nothing to share)', async () => {
    const { tools, runs } = countedTools();
    const store = new MemoryStore();
    const runtime = createToolRuntime({ tools, store, limits: { perSession: { perTool: 1 } } });
    for (let i = 0; i < 3; i++) await runtime.executeToolCall({ name: 'lookup', arguments: {} });
    expect(runs.read).toBe(3);
    expect(store.size).toBe(0);
  });

  it('gives a reservation back when the response halts before any call runs', async () => {
    const { tools, runs } = countedTools();
    const memory = new MemoryStore();
    // The reservation goes back to the store after the halt is thrown: the test waits for that release.
    let gaveBack: () => void = () => {};
    const givenBack = new Promise<void>((resolve) => (gaveBack = resolve));
    const store = storeWith({ release: (keys) => memory.release(keys).then(gaveBack) }, memory);
    const runtime = createToolRuntime({
      tools,
      store,
      unknownTool: 'throw',
      limits: { perSession: { perTool: 1 } },
    });
    const halted = runtime.executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'lookup', arguments: {} }, { name: 'nope' }]),
      sessionId: 's',
    });
    await expect(halted).rejects.toThrow("No tool named 'nope'");
    await givenBack;
    expect(
      await runtime.executeToolCall({ name: 'lookup', arguments: {} }, { sessionId: 's' }),
    ).toMatchObject({
      isError: false,
    });
    expect(runs.read).toBe(1);
  });

  it('refuses bad session limits when the runtime is made', () => {
    const { tools } = countedTools();
    expect(() => createToolRuntime({ tools, limits: { perSession: { perTool: -1 } } })).toThrow(
      'limits.perSession.perTool',
    );
    expect(() => createToolRuntime({ tools, limits: { perSession: 'x' as never } })).toThrow(
      'limits.perSession',
    );
    expect(() => createToolRuntime({ tools, store: { get: () => 1 } as never })).toThrow(
      'must implement the Store port (missing set, delete, reserve, release)',
    );
  });
});

describe('when the store fails', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a write fails closed: not run, the model told the tool is unavailable, an event with the failure', async () => {
    const { tools, runs } = countedTools();
    const events = recordEvents();
    const runtime = createToolRuntime({ tools, store: downStore(), limits: { perSession: { perTool: 5 } } });
    const outcome = await runtime.executeToolCall(
      { name: 'refund', arguments: { id: 'A' } },
      { sessionId: 's', onEvent: events.listener },
    );
    expect(runs.write).toBe(0);
    expect(outcome).toMatchObject({ isError: true, code: 'TOOL_UNAVAILABLE', errorClass: 'transient' });
    expect(outcome.type === 'answered' && outcome.content).toContain('so it was not run');
    expect(events.ofType('store-fail')).toMatchObject([
      { toolName: 'refund', failedOpen: false, errorType: 'StoreError' },
    ]);
  });

  it("a read fails open by default (runs uncounted, with an event), closed under onStoreFailure: 'closed'", async () => {
    const { tools, runs } = countedTools();
    const events = recordEvents();
    const open = createToolRuntime({ tools, store: downStore(), limits: { perSession: { perTool: 5 } } });
    expect(
      await open.executeToolCall(
        { name: 'lookup', arguments: {} },
        { sessionId: 's', onEvent: events.listener },
      ),
    ).toMatchObject({ isError: false });
    expect(events.ofType('store-fail')).toMatchObject([{ toolName: 'lookup', failedOpen: true }]);
    const closed = createToolRuntime({
      tools,
      store: downStore(),
      onStoreFailure: 'closed',
      limits: { perSession: { perTool: 5 } },
    });
    expect(await closed.executeToolCall({ name: 'lookup', arguments: {} }, { sessionId: 's' })).toMatchObject(
      {
        code: 'TOOL_UNAVAILABLE',
      },
    );
    expect(runs.read).toBe(1);
  });

  it("a store that hangs does not hold a call past the caller's abort: the write never runs", async () => {
    // The caller gives up after time passes on a fake clock.
    vi.useFakeTimers();
    const { tools, runs } = countedTools();
    const hanging = storeWith({ reserve: () => new Promise(() => {}), set: () => new Promise(() => {}) });
    for (const limits of [{ perSession: { perTool: 5 } }, {}]) {
      const runtime = createToolRuntime({ tools, store: hanging, limits });
      const caller = new AbortController();
      const call = runtime.executeToolCall(
        { name: 'refund', arguments: { id: 'A' } },
        { sessionId: 's', signal: caller.signal },
      );
      setTimeout(() => caller.abort(new Error('client gone')), 20);
      const refused = expect(call).rejects.toThrow('client gone');
      await vi.advanceTimersByTimeAsync(20);
      await refused;
    }
    expect(runs.write).toBe(0);
  });

  it('the loop stops as STORE_UNAVAILABLE after a write was refused, and says why', async () => {
    const { tools, runs } = countedTools();
    const model = new ScriptedModel({
      script: [
        assistantWithCalls([{ name: 'refund', arguments: { id: 'A' } }]),
        { role: 'assistant', content: 'Refunded.' },
      ],
    });
    const outcome = await runToolLoop({
      model,
      runtime: createToolRuntime({ tools, store: downStore() }),
      sessionId: 's',
      turnId: 't',
      messages: [user],
    });
    expect(runs.write).toBe(0);
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'STORE_UNAVAILABLE', roundTrips: 1 });
    expect(outcome.type === 'stopped' && outcome.text).toContain('could not be reached');
  });
});

describe('turn limits of calls prepared at the same time', () => {
  it('let one of two concurrent calls through a limit of one, though both wait on the store', async () => {
    const { tools, runs } = countedTools();
    // Session limits make each call await its reservation in the store before it is admitted.
    const runtime = createToolRuntime({ tools, limits: { perTool: 1, perSession: { perTool: 10 } } });
    const counts = emptyTurnCounts();
    const options = { sessionId: 'concurrent', counts };
    const outcomes = await Promise.all([
      runtime.executeToolCall({ id: 'a', name: 'lookup', arguments: '{"id":"1"}' }, options),
      runtime.executeToolCall({ id: 'b', name: 'lookup', arguments: '{"id":"2"}' }, options),
    ]);
    expect(runs.read).toBe(1);
    expect(
      outcomes.map((outcome) => (outcome.type === 'answered' ? (outcome.code ?? 'ok') : outcome.type)).sort(),
    ).toEqual(['TOOL_CALL_LIMIT', 'ok']);
    expect(counts.perTool.get('lookup')).toBe(1);
  });

  it('gives the count back when the store refuses the call, so the next call is not refused by the turn', async () => {
    const { tools, runs } = countedTools();
    const runtime = createToolRuntime({ tools, limits: { perTool: 1, perSession: { perTool: 1 } } });
    const options = { sessionId: 'given-back', counts: emptyTurnCounts() };
    await runtime.executeToolCall({ id: 'a', name: 'lookup', arguments: '{}' }, options);
    // The session's one call is spent: a new turn's call is refused by the store, and not counted.
    const nextTurn = { sessionId: 'given-back', counts: emptyTurnCounts() };
    const refused = await runtime.executeToolCall({ id: 'b', name: 'lookup', arguments: '{}' }, nextTurn);
    expect(refused).toMatchObject({ code: 'TOOL_CALL_LIMIT' });
    expect(nextTurn.counts.perTool.get('lookup') ?? 0).toBe(0);
    expect(nextTurn.counts.total).toBe(0);
    expect(runs.read).toBe(1);
  });
});
