import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_IDEMPOTENCY_LEASE_MARGIN_MS } from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { MemoryStore } from '../../store/memory-store.js';
import { recordEvents } from '../../testing/record-events.js';
import { storeWith } from '../../testing/store-with.js';
import { type AnyTool, defineTool } from '../../tools/define-tool.js';
import { createToolRuntime } from '../runtime.js';
import { abandonedClaim, chargeRecordKey, chargeTool } from './__fixtures__/charge-tool.js';
import { forgetIdempotencyRecord } from './forget-idempotency-record.js';

const args = { order: 'A-1' };
const call = { name: 'charge', arguments: args };

/** A store holding the claim of a process that died running the call, its lease passed. */
async function afterACrash(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.set(chargeRecordKey('s', args), abandonedClaim(args, 60_000, 1_000), { ifVersion: 0 });
  return store;
}

describe('a started record whose lease has passed (its process died)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('at least once: is taken over and run, with a taken-over event', async () => {
    const store = await afterACrash();
    const { tool, ledger } = chargeTool({ idempotency: { mode: 'at-least-once' } });
    const runtime = createToolRuntime({ tools: [tool], store });
    const recorder = recordEvents();
    const outcome = await runtime.executeToolCall(call, { sessionId: 's', onEvent: recorder.listener });
    expect(outcome).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(1);
    expect(recorder.ofType('idempotency-warn').map((event) => event.action)).toEqual(['taken-over']);
    expect((await store.get(chargeRecordKey('s', args)))?.value).toMatchObject({ state: 'completed' });
  });

  it('at least once: of many processes taking it over at once, one wins; the others wait and replay', async () => {
    // The winner's run takes 20 ms and the others look again after a delay: time passes on a fake clock.
    vi.useFakeTimers();
    const store = await afterACrash();
    const charged: string[] = [];
    const runtimes = Array.from({ length: 5 }, (_, index) => {
      const { tool } = chargeTool({
        idempotency: { mode: 'at-least-once' },
        run: () => new Promise((resolve) => setTimeout(() => resolve(charged.push(`p${index}`)), 20)),
      });
      return createToolRuntime({ tools: [tool], store });
    });
    const running = Promise.all(runtimes.map((runtime) => runtime.executeToolCall(call, { sessionId: 's' })));
    await vi.runAllTimersAsync();
    const outcomes = await running;
    expect(charged).toHaveLength(1);
    expect(
      outcomes.filter((outcome) => outcome.type === 'answered' && outcome.result.replayOf !== undefined),
    ).toHaveLength(4);
  });

  it('at most once (the default): the call is refused as OUTCOME_UNKNOWN until the record is forgotten', async () => {
    const store = await afterACrash();
    const { tool, ledger } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool], store });
    for (let i = 0; i < 2; i++) {
      expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({
        code: 'OUTCOME_UNKNOWN',
      });
    }
    expect(ledger.charges).toHaveLength(0);
    // Someone checked: the charge did not go through. Forget the record, and the call runs.
    expect(
      await forgetIdempotencyRecord(runtime, { toolName: 'charge', arguments: args, sessionId: 's' }),
    ).toBe(true);
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(1);
    expect(
      await forgetIdempotencyRecord(runtime, {
        toolName: 'charge',
        arguments: '{"order":"B"}',
        sessionId: 's',
      }),
    ).toBe(false);
  });
});

describe('the lease of a claim', () => {
  /** The lease of every record a runtime of `tool` writes. */
  async function leasesOf(tool: AnyTool, policy: { retry?: { maxDelayMs: number } } = {}) {
    const memory = new MemoryStore();
    const leases: unknown[] = [];
    const store = storeWith(
      {
        set: (key, value, options) => {
          leases.push((value as { leaseMs?: unknown }).leaseMs);
          return memory.set(key, value, options);
        },
      },
      memory,
    );
    await createToolRuntime({ tools: [tool], store, ...policy }).executeToolCall(call, { sessionId: 's' });
    return leases;
  }

  it("is the tool's timeout per attempt and the retry delays between them, plus a margin", async () => {
    const { tool } = chargeTool({ timeoutMs: 1_000, retries: 2 });
    expect(await leasesOf(tool, { retry: { maxDelayMs: 500 } })).toEqual([
      1_000 * 3 + 500 * 2 + DEFAULT_IDEMPOTENCY_LEASE_MARGIN_MS,
      undefined,
    ]);
  });

  it("or the tool's own leaseMs", async () => {
    const { tool } = chargeTool({ idempotency: { leaseMs: 123 } });
    expect(await leasesOf(tool)).toEqual([123, undefined]);
  });
});

describe('forgetIdempotencyRecord', () => {
  it('refuses a tool that keeps no records, and a call outside a session or turn', async () => {
    const read = defineTool({ name: 'look', description: 'Looks.', effect: 'read', execute: () => 1 });
    const { tool } = chargeTool();
    const runtime = createToolRuntime({ tools: [read, tool] });
    for (const toolName of ['look', 'nothing']) {
      await expect(
        forgetIdempotencyRecord(runtime, { toolName, arguments: {}, sessionId: 's' }),
      ).rejects.toBeInstanceOf(InvalidOptionsError);
    }
    await expect(forgetIdempotencyRecord(runtime, { toolName: 'charge', arguments: args })).rejects.toThrow(
      'give the sessionId or turnId',
    );
  });

  it("makes a tool's own key from validated arguments, and refuses arguments it cannot make one of", async () => {
    const { tool, ledger } = chargeTool({ idempotency: { key: (a) => a.order, mode: 'at-most-once' } });
    const runtime = createToolRuntime({ tools: [tool] });
    await runtime.executeToolCall(
      { name: 'charge', arguments: { order: 'A', cents: 1 } },
      { sessionId: 's' },
    );
    expect(
      await forgetIdempotencyRecord(runtime, {
        toolName: 'charge',
        arguments: { order: 'A', cents: 2 },
        sessionId: 's',
      }),
    ).toBe(true);
    await runtime.executeToolCall(
      { name: 'charge', arguments: { order: 'A', cents: 1 } },
      { sessionId: 's' },
    );
    expect(ledger.charges).toHaveLength(2);
    await expect(
      forgetIdempotencyRecord(runtime, { toolName: 'charge', arguments: '{"cents":1}', sessionId: 's' }),
    ).rejects.toThrow('are not valid arguments');
  });
});
