import { describe, expect, it } from 'vitest';
import { DEFAULT_IDEMPOTENCY_TTL_MS } from '../../core/defaults.js';
import type { StoreSetOptions } from '../../core/store.js';
import { MemoryStore } from '../../store/memory-store.js';
import { storeWith } from '../../testing/store-with.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';

const call = { name: 'charge', arguments: { order: 'A-1' } };

/** A store on a clock the test moves, with the options of every write kept. */
function clockedStore() {
  let now = 1_000_000;
  const memory = new MemoryStore({ now: () => now });
  const writes: (StoreSetOptions | undefined)[] = [];
  const store = storeWith(
    {
      set: (key, value, options) => {
        writes.push(options);
        return memory.set(key, value, options);
      },
    },
    memory,
  );
  return { store, writes, advance: (ms: number) => (now += ms) };
}

describe('idempotency records expire', () => {
  it('after 24 hours by default: the claim and the result are written with that TTL, and then the call runs again', async () => {
    const { store, writes, advance } = clockedStore();
    const { tool, ledger } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool], store });
    await runtime.executeToolCall(call, { sessionId: 's' });
    expect(writes.map((options) => options?.ttlMs)).toEqual([
      DEFAULT_IDEMPOTENCY_TTL_MS,
      DEFAULT_IDEMPOTENCY_TTL_MS,
    ]);
    advance(DEFAULT_IDEMPOTENCY_TTL_MS - 1);
    expect(await runtime.executeToolCall(call, { sessionId: 's' })).toMatchObject({ isError: false });
    expect(ledger.charges).toHaveLength(1);
    advance(1);
    await runtime.executeToolCall(call, { sessionId: 's' });
    expect(ledger.charges).toHaveLength(2);
  });

  it('after the TTL a tool sets', async () => {
    const { store, writes, advance } = clockedStore();
    const { tool, ledger } = chargeTool({ idempotency: { ttlMs: 60_000 } });
    const runtime = createToolRuntime({ tools: [tool], store });
    await runtime.executeToolCall(call, { sessionId: 's' });
    expect(writes.map((options) => options?.ttlMs)).toEqual([60_000, 60_000]);
    advance(59_999);
    await runtime.executeToolCall(call, { sessionId: 's' });
    expect(ledger.charges).toHaveLength(1);
    advance(1);
    await runtime.executeToolCall(call, { sessionId: 's' });
    expect(ledger.charges).toHaveLength(2);
  });
});
