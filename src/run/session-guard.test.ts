import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import type { GuardState } from '../core/guard-state.js';
import type { Message } from '../core/message.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { storeWith } from '../testing/store-with.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolLoop } from './run-tool-loop.js';
import { guardKey } from './session-guard.js';

const user: Message = { role: 'user', content: 'go' };
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a thing up.',
  effect: 'read',
  execute: async ({ id }: { id?: string }) => ({ id }),
});
const request = (id: string) =>
  new ScriptedModel({
    script: [
      assistantWithCalls([{ name: 'lookup', arguments: { id } }]),
      { role: 'assistant', content: 'Done.' },
    ],
  });

describe("the session's guard memory, saved by compare-and-set", () => {
  it('two requests of one session that save at once keep both their rounds: the later one merges', async () => {
    const memory = new MemoryStore();
    const key = guardKey('s');
    let raced = false;
    const store = storeWith(
      {
        // Just before this request's first save, another request of the session saves its own round.
        set: async (k, value, options) => {
          if (k === key && !raced) {
            raced = true;
            await runToolLoop({
              model: request('other'),
              runtime: createToolRuntime({ tools: [lookup], store: memory }),
              sessionId: 's',
              messages: [user],
            });
          }
          return memory.set(k, value, options);
        },
      },
      memory,
    );
    const outcome = await runToolLoop({
      model: request('mine'),
      runtime: createToolRuntime({ tools: [lookup], store }),
      sessionId: 's',
      messages: [user],
    });
    expect(outcome.type).toBe('completed');
    const saved = (await memory.get(key))?.value as GuardState;
    expect(saved.window.map((round) => [round.request, round.calls[0]?.tool])).toEqual([
      [1, 'lookup'],
      [2, 'lookup'],
    ]);
    expect(new Set(saved.window.map((round) => round.calls[0]?.call)).size).toBe(2);
    expect((await memory.get(key))?.version).toBe(2);
  });

  it.each([
    [8, 2],
    [32, 1],
  ])(
    '%i requests of one session at once, %i tool rounds each: every one completes, no round lost (concurrent-guard-save)',
    async (requests, rounds) => {
      const memory = new MemoryStore();
      // Every store call yields first, so the requests' loads and saves interleave as over a network.
      const store = storeWith(
        {
          get: async (k) => {
            await new Promise(setImmediate);
            return memory.get(k);
          },
          set: async (k, value, options) => {
            await new Promise(setImmediate);
            return memory.set(k, value, options);
          },
        },
        memory,
      );
      const runtime = createToolRuntime({ tools: [lookup], store });
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.name);
      process.on('warning', onWarning);
      const requestOf = (id: number) =>
        new ScriptedModel({
          script: [
            ...Array.from({ length: rounds }, (_, round) =>
              assistantWithCalls([{ name: 'lookup', arguments: { id: `${id}-${round}` } }]),
            ),
            { role: 'assistant', content: 'Done.' },
          ],
        });
      const outcomes = await Promise.allSettled(
        Array.from({ length: requests }, (_, id) =>
          runToolLoop({ model: requestOf(id), runtime, sessionId: 's', messages: [user] }),
        ),
      );
      expect(outcomes.map((outcome) => outcome.status === 'fulfilled' && outcome.value.type)).toEqual(
        Array.from({ length: requests }, () => 'completed'),
      );
      const saved = (await memory.get(guardKey('s')))?.value as GuardState;
      expect(saved.window).toHaveLength(requests * rounds);
      expect(new Set(saved.window.map((round) => round.calls[0]?.call)).size).toBe(requests * rounds);
      // The pauses between tries leave no listener behind on a signal they share.
      await new Promise(setImmediate);
      process.off('warning', onWarning);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    },
  );

  it('gives up after repeated conflicts and fails the run as a failed callback, the outcome kept', async () => {
    const memory = new MemoryStore();
    const store = storeWith(
      { set: async () => ({ ok: false, current: { value: {}, version: 99 } }) },
      memory,
    );
    const error = await runToolLoop({
      model: request('x'),
      runtime: createToolRuntime({ tools: [lookup], store }),
      sessionId: 's',
      // The pauses between tries are the loop's sleep: none here.
      sleep: async () => undefined,
      messages: [user],
    })
      .then(() => undefined)
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: 'CALLBACK_FAILED',
      callback: 'store.set',
      outcome: { type: 'completed' },
    });
  });
});
