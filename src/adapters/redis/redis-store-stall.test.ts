import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRuntime } from '../../chain/runtime.js';
import { StoreError } from '../../core/errors/store-error.js';
import {
  APPROVE,
  approvalShop,
  interrupted,
  ROUND,
  refusal,
  resume,
  USER,
} from '../../run/__fixtures__/approval-runs.js';
import { runStateKey } from '../../run/pending-run.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { storeKey } from '../../store/store-key.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { storeWith } from '../../testing/store-with.js';
import { defineTool } from '../../tools/define-tool.js';
import { type RedisServer, startRedisServer } from './__fixtures__/redis-server.js';
import { createRedisStore, type RedisStore } from './redis-store.js';

// A Redis that stalls: the process is frozen (SIGSTOP) while a command is on its way, the store gives up
// on it (TOOL_UNAVAILABLE, a failed resume), then Redis wakes up (SIGCONT) and runs every command that
// waited on the open connection. A claim, a reservation or a resume's claim the caller gave up on must then
// do nothing: each carries a deadline that has passed by Redis' clock when it finally runs.

describe('a Redis that stalls mid-command and wakes up: what the caller gave up on does nothing', () => {
  let server: RedisServer;
  let store: RedisStore;
  let admin: ReturnType<typeof createClient>;
  beforeAll(async () => {
    server = await startRedisServer();
    store = await createRedisStore({ url: server.url }, { commandTimeoutMs: 300 });
    admin = createClient({ url: server.url });
    admin.on('error', () => {});
    await admin.connect();
    // Redis caches the scripts, as a server in use has them: a script the server has not seen yet would be
    // refused (NOSCRIPT) when it wakes up, and the store sends its text only while its caller waits.
    await store.set(storeKey('warm', 'entry'), 1);
    await store.reserve([{ key: storeKey('warm', 'count'), limit: 1 }]);
  }, 30_000);
  afterAll(async () => {
    admin?.destroy();
    await store?.close();
    await server?.stop();
  });

  /** Freezes Redis while `during` runs (it must settle without Redis), then wakes it and waits until the store answers again. */
  async function stalled<T>(during: () => Promise<T>): Promise<T> {
    server.pause();
    let result: T;
    try {
      result = await during();
    } finally {
      server.resume();
    }
    // Sent on the same connection after the commands that waited: when it answers, they have all run.
    await store.get(storeKey('probe', 'after-stall'));
    return result;
  }

  /** A session's counter of a tool's calls, as Redis holds it. */
  const counted = async (session: string, tool: string) =>
    Number((await admin.get(storeKey(session, 'calls', tool))) ?? 0);

  it('stalled-claim: the write refused during the stall runs on the next identical call, counted once', async () => {
    const sent: string[] = [];
    const send = defineTool({
      name: 'send',
      description: 'Sends a message.',
      effect: 'write',
      timeoutMs: 1_000,
      execute: async ({ to }: { to?: string }) => {
        sent.push(String(to));
        return { sent: to };
      },
    });
    const runtime = createToolRuntime({ tools: [send], store, limits: { perSession: { perTool: 10 } } });
    const call = () =>
      runtime.executeToolCall({ name: 'send', arguments: { to: 'grace' } }, { sessionId: 'c' });

    const refused = await stalled(call);
    expect(refused).toMatchObject({ isError: true, code: 'TOOL_UNAVAILABLE' });
    expect(sent).toEqual([]);
    expect(await counted('c', 'send')).toBe(0);

    // Not "still running", not OUTCOME_UNKNOWN: the claim that landed after the caller gave up wrote nothing.
    expect(await call()).toMatchObject({ isError: false, result: { attempts: 1 } });
    expect(sent).toEqual(['grace']);
    expect(await counted('c', 'send')).toBe(1);
    expect(await call()).toMatchObject({ isError: false, result: { replayOf: expect.any(String) } });
    expect(await counted('c', 'send')).toBe(1);
  }, 30_000);

  it('stalled-reservation: a read refused during the stall counts nothing once Redis wakes up', async () => {
    let reads = 0;
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks an order up.',
      effect: 'read',
      execute: async () => ({ found: ++reads }),
    });
    const runtime = createToolRuntime({
      tools: [lookup],
      store,
      onStoreFailure: 'closed',
      limits: { perSession: { perTool: 10 } },
    });
    const call = () => runtime.executeToolCall({ name: 'lookup', arguments: {} }, { sessionId: 'r' });

    expect(await stalled(call)).toMatchObject({ isError: true, code: 'TOOL_UNAVAILABLE' });
    expect(await counted('r', 'lookup')).toBe(0);
    expect(await call()).toMatchObject({ isError: false });
    expect(reads).toBe(1);
    expect(await counted('r', 'lookup')).toBe(1);
  }, 30_000);

  it('stalled-resume: a resume whose claim stalled fails, and a later resume runs the approved call exactly once', async () => {
    const paused = interrupted(
      await runToolLoop({
        model: new ScriptedModel({ script: [ROUND] }),
        messages: USER,
        runtime: createToolRuntime({ tools: approvalShop().tools, store }),
      }),
    );
    const runKey = runStateKey(paused.runId);
    // Redis freezes just as the claim is sent (after the run was read).
    const freezing = storeWith(
      {
        set: (key, value, options) => {
          if (key === runKey) server.pause();
          return store.set(key, value, options);
        },
      },
      store,
    );
    const first = resume(freezing, paused.runId, APPROVE);
    try {
      const error = await first.done.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(StoreError.isInstance(error) && error.reason).toBe('unavailable');
    } finally {
      server.resume();
    }
    await store.get(storeKey('probe', 'after-stall'));
    expect(first.shop.refunds).toEqual([]);

    const later = resume(store, paused.runId, APPROVE);
    expect(await later.done).toMatchObject({ type: 'completed' });
    expect(later.shop.refunds).toEqual(['A-1']);
    const replay = resume(store, paused.runId, APPROVE);
    expect((await refusal(replay.done)).reason).toBe('already-resumed');
    expect(replay.shop.refunds).toEqual([]);
  }, 30_000);
});
