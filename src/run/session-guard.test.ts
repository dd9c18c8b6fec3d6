import { describe, expect, it } from 'vitest';
import type { GuardState } from '../guard/guard-types.js';
import type { Message } from '../messages/message.js';
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
              tools: [lookup],
              store: memory,
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
      tools: [lookup],
      store,
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

  it('gives up after repeated conflicts and fails the run as a failed callback, the outcome kept', async () => {
    const memory = new MemoryStore();
    const store = storeWith(
      { set: async () => ({ ok: false, current: { value: {}, version: 99 } }) },
      memory,
    );
    const error = await runToolLoop({
      model: request('x'),
      tools: [lookup],
      store,
      sessionId: 's',
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
