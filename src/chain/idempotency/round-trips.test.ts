import { describe, expect, it } from 'vitest';
import { ToolInputError } from '../../core/errors/tool-input-error.js';
import type { Store } from '../../core/store.js';
import { MemoryStore } from '../../store/memory-store.js';
import { defineTool } from '../../tools/define-tool.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';

/**
 * A MemoryStore that logs every call made to it: `set:0+latest` is a claim (the record, and the scope's
 * latest write with it), `set:<n>` a compare-and-set at n.
 */
function loggedStore(): { readonly store: Store; readonly log: string[] } {
  const memory = new MemoryStore();
  const log: string[] = [];
  const store: Store = {
    get: (key) => {
      log.push('get');
      return memory.get(key);
    },
    set: (key, value, options) => {
      log.push(`set:${options?.ifVersion}${options?.also === undefined ? '' : '+latest'}`);
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
    expect(log.splice(0)).toEqual(['set:0+latest', 'set:1']);
    await runtime.executeToolCall(call, { sessionId: 's' });
    expect(log.splice(0)).toEqual(['set:0+latest']);
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
    expect(log.splice(0)).toEqual(['set:0+latest', 'set:1']);
    await runtime.executeToolCall({ name: 'charge', arguments: { order: 'A-1' } }, scope);
    expect(log.splice(0)).toEqual(['set:0+latest']);
    await runtime.executeToolCall({ name: 'look' }, scope);
    expect(log.splice(0)).toEqual(['reserve']);
  });

  it('a write after another (the same arguments, a new write) takes three: refused, claimed over, recorded', async () => {
    const { store, log } = loggedStore();
    const { tool } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool], store });
    const call = (order: string) =>
      runtime.executeToolCall({ name: 'charge', arguments: { order } }, { sessionId: 's' });
    await call('A-1');
    await call('B-2');
    log.splice(0);
    await call('A-1');
    expect(log).toEqual(['set:0+latest', 'set:2+latest', 'set:3']);
  });

  it('a write the tool refused takes two: claimed, then released', async () => {
    const { store, log } = loggedStore();
    const { tool } = chargeTool({
      run: () => {
        throw new ToolInputError({ message: 'run the migrations first' });
      },
    });
    const runtime = createToolRuntime({ tools: [tool], store });
    await runtime.executeToolCall({ name: 'charge', arguments: { order: 'A-1' } }, { sessionId: 's' });
    expect(log).toEqual(['set:0+latest', 'delete']);
  });

  it('a call that may change something but keeps no record takes one (it ends the window), only where it matters', async () => {
    const { store, log } = loggedStore();
    const act = defineTool({ name: 'act', description: 'Acts.', effect: 'unknown', execute: () => 1 });
    const { tool } = chargeTool();
    await createToolRuntime({ tools: [tool, act], store }).executeToolCall(
      { name: 'act' },
      { sessionId: 's' },
    );
    expect(log.splice(0)).toEqual(['set:undefined']);
    // A runtime whose writes have keys of their own (guardTools: the call id) keeps no window to end.
    const { tool: keyed } = chargeTool({ idempotency: { key: (args) => args.order } });
    await createToolRuntime({ tools: [keyed, act], store }).executeToolCall(
      { name: 'act' },
      { sessionId: 's' },
    );
    expect(log.splice(0)).toEqual([]);
  });
});
