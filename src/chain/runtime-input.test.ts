import { describe, expect, it } from 'vitest';
import type { Message } from '../core/message.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { defineTool } from '../tools/define-tool.js';
import { executeToolCall } from './execute-tool-call.js';
import { executeToolCalls } from './execute-tool-calls.js';
import { createToolRuntime } from './runtime.js';

// The one-off forms (`{ tools, ...policy }`) build a runtime per call, and with it a memory store per
// call: what a session or a turn keeps would be lost between calls. Every option either takes effect or
// is refused, before anything runs.

const user: Message = { role: 'user', content: 'Charge order A-1.' };
function chargeTool() {
  const charged: string[] = [];
  const tool = defineTool({
    name: 'charge',
    description: 'Charges an order.',
    effect: 'write',
    execute: async ({ order }: { order: string }) => {
      charged.push(order);
      return { charged: order };
    },
  });
  return { tool, charged };
}
const charge = (id: string) => assistantWithCalls([{ name: 'charge', arguments: { order: 'A-1' }, id }]);

describe('a one-off form given state to keep', () => {
  it.each([
    ['sessionId', { sessionId: 's' }],
    ['turnId', { turnId: 't' }],
  ])('executeToolCalls with a %s and no store is refused, and runs nothing', async (option, ids) => {
    const { tool, charged } = chargeTool();
    const refused = executeToolCalls({ tools: [tool], messages: [user], response: charge('c1'), ...ids });
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
    await expect(refused).rejects.toThrow(
      /keeps no state between calls.*createToolRuntime\(\{ tools, store \}\)/,
    );
    expect(charged).toEqual([]);
  });

  it.each([
    ['sessionId', { sessionId: 's' }],
    ['turnId', { turnId: 't' }],
  ])('executeToolCall with a %s and no store is refused, and runs nothing', async (option, ids) => {
    const { tool, charged } = chargeTool();
    const refused = executeToolCall({
      tools: [tool],
      call: { name: 'charge', arguments: { order: 'A-1' } },
      ...ids,
    });
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
    expect(charged).toEqual([]);
  });

  it('the same write of one session runs once: through a runtime, or a one-off form with its store', async () => {
    const viaRuntime = chargeTool();
    const runtime = createToolRuntime({ tools: [viaRuntime.tool] });
    await runtime.executeToolCalls({ messages: [user], response: charge('c1'), sessionId: 's' });
    await executeToolCalls({ runtime, messages: [user], response: charge('c2'), sessionId: 's' });
    expect(viaRuntime.charged).toEqual(['A-1']);

    const withStore = chargeTool();
    const store = new MemoryStore();
    for (const id of ['c1', 'c2']) {
      await executeToolCalls({
        tools: [withStore.tool],
        store,
        messages: [user],
        response: charge(id),
        sessionId: 's',
      });
    }
    await executeToolCall({
      tools: [withStore.tool],
      store,
      call: { name: 'charge', arguments: { order: 'A-1' } },
      sessionId: 's',
    });
    expect(withStore.charged).toEqual(['A-1']);
  });

  it('without a session or a turn, a one-off form runs as before', async () => {
    const { tool, charged } = chargeTool();
    const result = await executeToolCalls({ tools: [tool], messages: [user], response: charge('c1') });
    expect(result.results[0]?.type).toBe('success');
    expect(charged).toEqual(['A-1']);
  });
});

describe('a policy option next to a runtime', () => {
  it.each([
    ['timeoutMs', { timeoutMs: 50 }],
    ['limits', { limits: { perTool: 1 } }],
    ['retry', { retry: { readRetries: 0 } }],
    ['store', { store: new MemoryStore() }],
    ['authorize', { authorize: () => false }],
    ['needsApproval', { needsApproval: true }],
    ['beforeToolCall', { beforeToolCall: () => ({ type: 'deny', reason: 'no' }) }],
    ['tools', { tools: [] }],
  ])(
    '%s is refused by executeToolCalls and executeToolCall: it belongs in createToolRuntime',
    async (option, extra) => {
      const { tool, charged } = chargeTool();
      const runtime = createToolRuntime({ tools: [tool] });
      const many = executeToolCalls({ runtime, messages: [user], response: charge('c1'), ...extra } as never);
      await expect(many).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
      await expect(many).rejects.toThrow(/createToolRuntime/);
      const one = executeToolCall({ runtime, call: { name: 'charge', arguments: {} }, ...extra } as never);
      await expect(one).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
      expect(charged).toEqual([]);
    },
  );

  it('is refused even when it is the value the runtime already holds, and at the type level', async () => {
    const { tool, charged } = chargeTool();
    const store = new MemoryStore();
    const runtime = createToolRuntime({ tools: [tool], store });
    await expect(
      // @ts-expect-error: a runtime takes no policy option next to it
      executeToolCalls({ runtime, store, messages: [user], response: charge('c1') }),
    ).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: 'store' });
    await expect(
      // @ts-expect-error: a runtime takes no policy option next to it
      executeToolCall({ runtime, timeoutMs: 50, call: { name: 'charge', arguments: {} } }),
    ).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: 'timeoutMs' });
    expect(charged).toEqual([]);
  });
});

describe('an option neither form knows', () => {
  const many = (extra: object) => () =>
    executeToolCalls({
      tools: [chargeTool().tool],
      messages: [user],
      response: charge('c1'),
      ...extra,
    } as never);
  const one = (extra: object) => () =>
    executeToolCall({ tools: [chargeTool().tool], call: { name: 'charge' }, ...extra } as never);
  it.each([
    ['executeToolCalls', many({ sesionId: 's' }), 'sesionId', /did you mean "sessionId"/],
    ['executeToolCall', one({ timeout: 5 }), 'timeout', /did you mean "timeoutMs"/],
    [
      'executeToolCalls',
      many({ maxSteps: 5 }),
      'maxSteps',
      /not an option of executeToolCalls; known: .*messages.*timeoutMs/,
    ],
  ])('%s refuses it, naming it, with the known ones', async (_form, call, option, message) => {
    const refused = call();
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
    await expect(refused).rejects.toThrow(message);
  });
});

describe('createToolRuntime, where the policy now goes', () => {
  it('refuses an option it does not know, with the closest one', () => {
    const tools = [chargeTool().tool];
    expect(() => createToolRuntime({ tools, timeout: 50 } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', option: 'timeout' }),
    );
    expect(() => createToolRuntime({ tools, timeout: 50 } as never)).toThrow(
      /is not an option of createToolRuntime \(did you mean "timeoutMs"\?\)/,
    );
    // A loop option given to the runtime would be ignored there: refused too.
    expect(() => createToolRuntime({ tools, wrapRun: () => undefined } as never)).toThrow(/wrapRun/);
  });

  it('refuses onEvent, which it used to ignore silently, and says where it goes (ignored-option)', () => {
    const tools = [chargeTool().tool];
    expect(() => createToolRuntime({ tools, onEvent: () => undefined } as never)).toThrow(
      /onEvent.*give onEvent to runtime\.executeToolCalls, executeToolCall or runToolLoop/,
    );
  });
});

describe('what an execution hands back', () => {
  it("is a new history each time: the caller's and the earlier ones keep their length", async () => {
    const runtime = createToolRuntime({ tools: [chargeTool().tool] });
    const messages: Message[] = [user];
    const first = await runtime.executeToolCalls({ messages, response: charge('c1') });
    const second = await runtime.executeToolCalls({ messages: first.messages, response: charge('c2') });
    expect(messages).toHaveLength(1);
    expect(first.messages).toHaveLength(3);
    expect(second.messages).toHaveLength(5);
  });
});
