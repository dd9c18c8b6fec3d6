import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRuntime } from '../../chain/runtime.js';
import type { Message } from '../../core/message.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { storeKey } from '../../store/store-key.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { recordEvents } from '../../testing/record-events.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { defineTool } from '../../tools/define-tool.js';
import { type RedisServer, startRedisServer } from './__fixtures__/redis-server.js';
import { createRedisStore, type RedisStore } from './redis-store.js';

const user: Message = { role: 'user', content: 'go' };

/** Waits until the store answers again (its client reconnects with a bounded backoff). */
async function untilBack(store: RedisStore): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await store.get('tw:{probe}:x');
      return;
    } catch (error) {
      if (attempt > 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('tool calls through a Redis outage (a private redis-server, stopped mid-run and started again)', () => {
  let server: RedisServer;
  let store: RedisStore;
  const runs = { lookup: 0, send: 0 };
  const tools = [
    defineTool({
      name: 'lookup',
      description: 'Looks an order up.',
      effect: 'read',
      execute: async () => ({ found: ++runs.lookup }),
    }),
    defineTool({
      name: 'send',
      description: 'Sends a message.',
      effect: 'write',
      execute: async ({ to }: { to?: string }) => ({ sent: to, n: ++runs.send }),
    }),
  ];
  beforeAll(async () => {
    server = await startRedisServer();
    store = await createRedisStore({ url: server.url }, { commandTimeoutMs: 500 });
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it('writes fail closed, reads fail open, and once Redis is back the counts are exactly the calls that ran', async () => {
    const runtime = createToolRuntime({ tools, store, limits: { perSession: { perTool: 10 } } });
    const call = (name: string, args: object, onEvent?: ReturnType<typeof recordEvents>['listener']) =>
      runtime.executeToolCall({ name, arguments: args }, { sessionId: 's', ...(onEvent ? { onEvent } : {}) });
    for (const id of ['a', 'b', 'c']) expect(await call('lookup', { id })).toMatchObject({ isError: false });
    expect(await call('send', { to: 'ada' })).toMatchObject({ isError: false });

    await server.stop({ keepData: true }); // Redis goes away mid-run, with what it held saved.
    const events = recordEvents();
    expect(await call('send', { to: 'grace' }, events.listener)).toMatchObject({
      isError: true,
      code: 'TOOL_UNAVAILABLE',
    });
    expect(await call('lookup', { id: 'd' }, events.listener)).toMatchObject({ isError: false });
    expect(runs).toEqual({ lookup: 4, send: 1 });
    expect(
      events.ofType('store-fail').map((event) => ['toolName' in event && event.toolName, event.failedOpen]),
    ).toEqual([
      ['send', false],
      ['lookup', true],
    ]);
    const outcome = await runToolLoop({
      model: new ScriptedModel({
        script: [
          assistantWithCalls([{ name: 'send', arguments: { to: 'grace' } }]),
          { role: 'assistant', content: 'Sent.' },
        ],
      }),
      runtime,
      sessionId: 's',
      messages: [user],
    });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'STORE_UNAVAILABLE' });
    expect(runs.send).toBe(1);

    await server.restart();
    await untilBack(store);
    // What the store counted: the calls that ran while it was up, none of those it refused or missed.
    const counted = await Promise.all(
      ['lookup', 'send'].map(async (tool) => {
        const key = storeKey('s', 'calls', tool);
        const reserved = await store.reserve([{ key, limit: 1000 }]);
        await store.release([key]);
        return reserved.ok ? (reserved.counts[0] ?? 0) - 1 : Number.NaN;
      }),
    );
    expect(counted).toEqual([3, 1]);
    // The write refused during the outage runs now, once: asked again, it is a replay.
    expect(await call('send', { to: 'grace' })).toMatchObject({ isError: false });
    const again = await call('send', { to: 'grace' });
    expect(again).toMatchObject({ isError: false, result: { replayOf: expect.any(String) } });
    // The write that ran before the outage is a new write now that another ran since: it runs again.
    expect(await call('send', { to: 'ada' })).toMatchObject({ isError: false, result: { attempts: 1 } });
    expect(runs.send).toBe(3);
  }, 60_000);
});
