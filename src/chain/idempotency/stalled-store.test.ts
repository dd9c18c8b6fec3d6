import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_STORE_TIMEOUT_MS } from '../../core/defaults.js';
import type { Store } from '../../core/store.js';
import { MemoryStore } from '../../store/memory-store.js';
import { storeKey } from '../../store/store-key.js';
import { storeWith } from '../../testing/store-with.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';

afterEach(() => {
  vi.useRealTimers();
});

/**
 * A store that stalls: while `stalled`, each write and reservation is held (sent, not answered); `wake`
 * applies the held ones to the memory store behind it, in order, as a server that wakes up runs what waited.
 */
function stallingStore(base: MemoryStore) {
  const held: (() => Promise<unknown>)[] = [];
  let stalled = true;
  const hold = <T>(apply: () => Promise<T>): Promise<T> => {
    if (!stalled) return apply();
    return new Promise<T>((resolve, reject) => held.push(() => apply().then(resolve, reject)));
  };
  const store: Store = storeWith(
    {
      set: (key, value, options) => hold(() => base.set(key, value, options)),
      reserve: (counters, options) => hold(() => base.reserve(counters, options)),
    },
    base,
  );
  return {
    store,
    held: () => held.length,
    async wake() {
      stalled = false;
      for (const apply of held.splice(0)) await apply().catch(() => {});
    },
  };
}

/** The session's count of `tool`'s calls, as the store holds it. */
async function counted(store: Store, session: string, tool: string): Promise<number> {
  const key = storeKey(session, 'calls', tool);
  const reserved = await store.reserve([{ key, limit: 1_000 }]);
  await store.release([key]);
  return reserved.ok ? (reserved.counts[0] ?? 0) - 1 : Number.NaN;
}

/** A charge tool counted against the session's limits, over a store that stalls; `call` charges A-1. */
function chargeOverStallingStore() {
  const base = new MemoryStore();
  const stalling = stallingStore(base);
  const { tool, ledger } = chargeTool({ timeoutMs: 1_000 });
  const runtime = createToolRuntime({
    tools: [tool],
    store: stalling.store,
    limits: { perSession: { perTool: 10 } },
  });
  const call = (signal?: AbortSignal) =>
    runtime.executeToolCall(
      { name: 'charge', arguments: { order: 'A-1' } },
      { sessionId: 's', ...(signal === undefined ? {} : { signal }) },
    );
  return { base, stalling, ledger, call };
}

describe('a store that stalls, by a fake clock: what lands after the caller gave up does nothing', () => {
  it('stalled-claim: a claim that lands after its wait writes and counts nothing; the next identical call runs', async () => {
    vi.useFakeTimers();
    const { base, stalling, ledger, call } = chargeOverStallingStore();

    const refused = call();
    await vi.advanceTimersByTimeAsync(DEFAULT_STORE_TIMEOUT_MS);
    expect(await refused).toMatchObject({ isError: true, code: 'TOOL_UNAVAILABLE' });
    await stalling.wake();
    expect(await counted(base, 's', 'charge')).toBe(0);

    const next = call();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await next).toMatchObject({ isError: false, result: { attempts: 1 } });
    expect(ledger.charges).toHaveLength(1);
    expect(await counted(base, 's', 'charge')).toBe(1);
  });

  it('stalled-claim, given up by an abort: a claim that lands before its deadline is undone; the next identical call runs', async () => {
    const { base, stalling, ledger, call } = chargeOverStallingStore();
    const caller = new AbortController();
    const aborted = call(caller.signal);
    await vi.waitFor(() => expect(stalling.held()).toBe(1));
    caller.abort(new Error('client gone'));
    await expect(aborted).rejects.toThrow('client gone');
    await stalling.wake();
    // The claim landed (its deadline had not passed) and is given back: no record, nothing counted.
    await vi.waitFor(async () => expect(await counted(base, 's', 'charge')).toBe(0));
    expect(await call()).toMatchObject({ isError: false, result: { attempts: 1 } });
    expect(ledger.charges).toHaveLength(1);
    expect(await counted(base, 's', 'charge')).toBe(1);
  });

  it("stalled-reservation: a read's reservation that lands after its wait counts nothing", async () => {
    vi.useFakeTimers();
    const base = new MemoryStore();
    const stalling = stallingStore(base);
    let reads = 0;
    const runtime = createToolRuntime({
      tools: [
        {
          ...chargeTool().tool,
          name: 'lookup',
          effect: 'read',
          execute: () => ({ read: ++reads }),
        },
      ],
      store: stalling.store,
      onStoreFailure: 'closed',
      limits: { perSession: { perTool: 10 } },
    });
    const refused = runtime.executeToolCall(
      { name: 'lookup', arguments: { order: 'A-1' } },
      { sessionId: 's' },
    );
    await vi.advanceTimersByTimeAsync(DEFAULT_STORE_TIMEOUT_MS);
    expect(await refused).toMatchObject({ isError: true, code: 'TOOL_UNAVAILABLE' });
    await stalling.wake();
    expect(reads).toBe(0);
    expect(await counted(base, 's', 'lookup')).toBe(0);
  });

  it('stalled-reservation, given up by an abort: a reservation that lands before its deadline is given back', async () => {
    const base = new MemoryStore();
    const stalling = stallingStore(base);
    const runtime = createToolRuntime({
      tools: [{ ...chargeTool().tool, name: 'lookup', effect: 'read', execute: () => ({ read: true }) }],
      store: stalling.store,
      limits: { perSession: { perTool: 10 } },
    });
    const caller = new AbortController();
    const aborted = runtime.executeToolCall(
      { name: 'lookup', arguments: { order: 'A-1' } },
      { sessionId: 's', signal: caller.signal },
    );
    await vi.waitFor(() => expect(stalling.held()).toBe(1));
    caller.abort(new Error('client gone'));
    await expect(aborted).rejects.toThrow('client gone');
    await stalling.wake();
    await vi.waitFor(async () => expect(await counted(base, 's', 'lookup')).toBe(0));
  });
});
