import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool } from '../tools/define-tool.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };

/** A tool whose calls finish only when the test says so, and that tracks how many run at once. */
function gatedTool(name: string, effect: 'read' | 'write') {
  const gates: Array<() => void> = [];
  const state = { running: 0, maxRunning: 0, started: 0 };
  const tool = defineTool({
    name,
    description: 'd',
    effect,
    execute: async ({ n }: { n: number }) => {
      state.started++;
      state.running++;
      state.maxRunning = Math.max(state.maxRunning, state.running);
      await new Promise<void>((resolve) => gates.push(resolve));
      state.running--;
      return n;
    },
  });
  /** Opens the gates one by one until the execution is done. */
  const releaseAll = async (pending: Promise<unknown>) => {
    let done = false;
    void pending.finally(() => {
      done = true;
    });
    while (!done) {
      gates.shift()?.();
      // A turn of the event loop: the call let through runs to its end, and the next one to its gate.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { tool, state, releaseAll };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('concurrent calls in one response', () => {
  it('runs at most 4 read calls at once by default and keeps the model order', async () => {
    const { tool, state, releaseAll } = gatedTool('r', 'read');
    const response = assistantWithCalls(
      Array.from({ length: 10 }, (_, n) => ({ name: 'r', arguments: { n } })),
    );
    const pending = createToolRuntime({ tools: [tool] }).executeToolCalls({ messages: [user], response });
    await releaseAll(pending);
    const result = await pending;
    expect(state.maxRunning).toBe(4);
    expect(result.messages.slice(2).map((m) => m.content)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
    ]);
  });

  it('honours a custom cap', async () => {
    const { tool, state, releaseAll } = gatedTool('r', 'read');
    const response = assistantWithCalls(
      Array.from({ length: 6 }, (_, n) => ({ name: 'r', arguments: { n } })),
    );
    const pending = createToolRuntime({ tools: [tool], concurrency: 2 }).executeToolCalls({
      messages: [user],
      response,
    });
    await releaseAll(pending);
    await pending;
    expect(state.maxRunning).toBe(2);
  });

  it('runs write tools one at a time by default', async () => {
    const { tool, state, releaseAll } = gatedTool('w', 'write');
    const response = assistantWithCalls(
      Array.from({ length: 5 }, (_, n) => ({ name: 'w', arguments: { n } })),
    );
    const pending = createToolRuntime({ tools: [tool] }).executeToolCalls({ messages: [user], response });
    await releaseAll(pending);
    await pending;
    expect(state.maxRunning).toBe(1);
  });

  it('finishes in a different order than it started, yet appends in the model order', async () => {
    const order: number[] = [];
    const tool = defineTool({
      name: 'slow',
      description: 'd',
      effect: 'read',
      execute: async ({ ms }: { ms: number }) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        order.push(ms);
        return ms;
      },
    });
    vi.useFakeTimers();
    const response = assistantWithCalls([30, 10, 20].map((ms) => ({ name: 'slow', arguments: { ms } })));
    const pending = createToolRuntime({ tools: [tool] }).executeToolCalls({ messages: [user], response });
    await vi.runAllTimersAsync();
    const result = await pending;
    expect(order).toEqual([10, 20, 30]);
    expect(result.results.map((r) => r.content)).toEqual(['30', '10', '20']);
  });

  it('never discards other results when one call fails', async () => {
    const recorder = recordEvents();
    const tool = defineTool({
      name: 'maybe',
      description: 'd',
      effect: 'read',
      execute: async ({ fail }: { fail: boolean }) => {
        if (fail) throw new Error('this one failed');
        return 'fine';
      },
    });
    const response = assistantWithCalls(
      [false, true, false].map((fail) => ({ name: 'maybe', arguments: { fail } })),
    );
    const result = await createToolRuntime({ tools: [tool] }).executeToolCalls({
      messages: [user],
      response,
      onEvent: recorder.listener,
    });
    expect(result.results.map((r) => r.type)).toEqual(['success', 'error', 'success']);
    expect(recorder.ofType('tool-call-end')).toHaveLength(3);
  });
});
