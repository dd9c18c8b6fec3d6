import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import { StoreError } from '../core/errors/store-error.js';
import type { Message } from '../core/message.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { storeWith } from '../testing/store-with.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolLoop } from './run-tool-loop.js';
import { guardKey } from './session-guard.js';

const user: Message = { role: 'user', content: 'status?' };
const outage = (operation: string) =>
  Promise.reject(new StoreError({ reason: 'unavailable', operation, message: 'ECONNREFUSED 127.0.0.1:1' }));

const status = defineTool({
  name: 'status',
  description: 'The status of the job.',
  effect: 'read',
  execute: async () => ({ state: 'running' }),
});

const twoRounds = () =>
  new ScriptedModel({
    script: [assistantWithCalls([{ name: 'status' }]), { role: 'assistant', content: 'Still running.' }],
  });

describe("the session's guard memory when the store is down", () => {
  it('a load that fails as an outage runs the request on a fresh memory (fail open), with an event, and saves nothing over it', async () => {
    let saves = 0;
    const store = storeWith({
      get: () => outage('get'),
      set: async () => ({ ok: true, version: ++saves }),
    });
    const events = recordEvents();
    const outcome = await runToolLoop({
      model: twoRounds(),
      runtime: createToolRuntime({ tools: [status], store }),
      sessionId: 's',
      messages: [user],
      onEvent: events.listener,
    });
    expect(outcome).toMatchObject({ type: 'completed', text: 'Still running.' });
    expect(events.ofType('store-fail')).toMatchObject([
      { operation: 'guard-load', failedOpen: true, errorType: 'StoreError' },
    ]);
    expect(saves).toBe(0);
  });

  it("under onStoreFailure: 'closed' the run stops as STORE_UNAVAILABLE before any model call", async () => {
    const store = storeWith({ get: () => outage('get') });
    const model = twoRounds();
    const outcome = await runToolLoop({
      model,
      runtime: createToolRuntime({ tools: [status], store, onStoreFailure: 'closed' }),
      sessionId: 's',
      messages: [user],
    });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'STORE_UNAVAILABLE', roundTrips: 0 });
    expect(model.requests).toHaveLength(0);
  });

  it('a save that fails as an outage keeps the outcome (no CallbackError), with an event', async () => {
    const memory = new MemoryStore();
    const store = storeWith({ set: () => outage('set') }, memory);
    const events = recordEvents();
    const outcome = await runToolLoop({
      model: twoRounds(),
      runtime: createToolRuntime({ tools: [status], store }),
      sessionId: 's',
      messages: [user],
      onEvent: events.listener,
    });
    expect(outcome).toMatchObject({ type: 'completed' });
    expect(events.ofType('store-fail')).toMatchObject([{ operation: 'guard-save', failedOpen: false }]);
    expect(await memory.get(guardKey('s'))).toBeUndefined();
  });

  it('a store that fails with anything but a StoreError is still a failed callback (a defect, not an outage)', async () => {
    const store = storeWith({ get: () => Promise.reject(new TypeError('bug in my store')) });
    const error = await runToolLoop({
      model: twoRounds(),
      runtime: createToolRuntime({ tools: [status], store }),
      sessionId: 's',
      messages: [user],
    })
      .then(() => undefined)
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'CALLBACK_FAILED', callback: 'store.get' });
  });
});
