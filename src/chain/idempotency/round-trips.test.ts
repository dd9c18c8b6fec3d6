import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory-store.js';
import type { Store } from '../../store/store.js';
import { defineTool } from '../../tools/define-tool.js';
import { createToolRuntime } from '../tool-runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';

/** A MemoryStore that logs every call made to it (`set:0` is a claim, `set:<n>` a compare-and-set at n). */
function loggedStore(): { readonly store: Store; readonly log: string[] } {
  const memory = new MemoryStore();
  const log: string[] = [];
  const store: Store = {
    get: (key) => {
      log.push('get');
      return memory.get(key);
    },
    set: (key, value, options) => {
      log.push(`set:${options?.ifVersion}`);
      return memory.set(key, value, options);
    },
    delete: (key, options) => {
      log.push('delete');
      return memory.delete(key, options);
    },
    reserve: (counters, options) => {
      log.push('reserve');
      return memory.reserve(counters, options);
    },
    release: (keys) => {
      log.push('release');
      return memory.release(keys);
    },
  };
  return { store, log };
}

describe('store round trips', () => {
  it('an idempotent write takes two (claim, record), a duplicate one, a read and an opted-out write none', async () => {
    const { store, log } = loggedStore();
    const { tool } = chargeTool();
    const { tool: free } = chargeTool({ idempotency: false });
    const read = defineTool({ name: 'look', description: 'Looks.', effect: 'read', execute: () => 1 });
    const runtime = createToolRuntime({ tools: [tool, read], store });
    const call = { name: 'charge', arguments: { order: 'A-1' } };
    await runtime.executeToolCall(call, { sessionId: 's' });
    expect(log.splice(0)).toEqual(['set:0', 'set:1']);
    await runtime.executeToolCall(call, { sessionId: 's' });
    expect(log.splice(0)).toEqual(['set:0']);
    await runtime.executeToolCall({ name: 'look' }, { sessionId: 's' });
    expect(log.splice(0)).toEqual([]);
    const unrecorded = createToolRuntime({ tools: [free], store });
    await unrecorded.executeToolCall(call, { sessionId: 's' });
    expect(log).toEqual([]);
  });

  it('under limits shared through the store: a write still takes two (its claim counts it), a read one', async () => {
    const { store, log } = loggedStore();
    const { tool } = chargeTool();
    const read = defineTool({ name: 'look', description: 'Looks.', effect: 'read', execute: () => 1 });
    const runtime = createToolRuntime({ tools: [tool, read], store, limits: { perSession: { total: 10 } } });
    const scope = { sessionId: 's', turnId: 't' };
    await runtime.executeToolCall({ name: 'charge', arguments: { order: 'A-1' } }, scope);
    expect(log.splice(0)).toEqual(['set:0', 'set:1']);
    await runtime.executeToolCall({ name: 'charge', arguments: { order: 'A-1' } }, scope);
    expect(log.splice(0)).toEqual(['set:0']);
    await runtime.executeToolCall({ name: 'look' }, scope);
    expect(log.splice(0)).toEqual(['reserve']);
  });
});
