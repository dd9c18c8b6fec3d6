import { describe, expect, it } from 'vitest';
import type { Message } from '../core/message.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { defineTool } from '../tools/define-tool.js';
import { createToolRuntime } from './runtime.js';

// A runtime's methods take the execution's options only: a policy option given to one is refused, with
// where it goes, rather than ignored; so is an option neither knows.

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

describe('the state of a session', () => {
  it('is kept by the runtime: the same write of one session runs once, with its store or its own', async () => {
    const viaRuntime = chargeTool();
    const runtime = createToolRuntime({ tools: [viaRuntime.tool] });
    await runtime.executeToolCalls({ messages: [user], response: charge('c1'), sessionId: 's' });
    await runtime.executeToolCalls({ messages: [user], response: charge('c2'), sessionId: 's' });
    expect(viaRuntime.charged).toEqual(['A-1']);

    const withStore = chargeTool();
    const store = new MemoryStore();
    for (const id of ['c1', 'c2']) {
      await createToolRuntime({ tools: [withStore.tool], store }).executeToolCalls({
        messages: [user],
        response: charge(id),
        sessionId: 's',
      });
    }
    await createToolRuntime({ tools: [withStore.tool], store }).executeToolCall(
      { name: 'charge', arguments: { order: 'A-1' } },
      { sessionId: 's' },
    );
    expect(withStore.charged).toEqual(['A-1']);
  });
});

describe('a policy option given to a runtime method', () => {
  it.each([
    ['timeoutMs', { timeoutMs: 50 }],
    ['limits', { limits: { perTool: 1 } }],
    ['retry', { retry: { readRetries: 0 } }],
    ['store', { store: new MemoryStore() }],
    ['decide', { decide: () => ({ type: 'deny', reason: 'no' }) }],
    ['tools', { tools: [] }],
  ])(
    '%s is refused by executeToolCalls and executeToolCall: it belongs in createToolRuntime',
    async (option, extra) => {
      const { tool, charged } = chargeTool();
      const runtime = createToolRuntime({ tools: [tool] });
      const many = runtime.executeToolCalls({ messages: [user], response: charge('c1'), ...extra } as never);
      await expect(many).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
      await expect(many).rejects.toThrow(/createToolRuntime/);
      const one = runtime.executeToolCall({ name: 'charge', arguments: {} }, extra as never);
      await expect(one).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option });
      expect(charged).toEqual([]);
    },
  );

  it('is refused at the type level too', async () => {
    const { tool, charged } = chargeTool();
    const runtime = createToolRuntime({ tools: [tool] });
    await expect(
      // @ts-expect-error: a runtime method takes no policy option
      runtime.executeToolCalls({ messages: [user], response: charge('c1'), store: new MemoryStore() }),
    ).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: 'store' });
    await expect(
      // @ts-expect-error: a runtime method takes no policy option
      runtime.executeToolCall({ name: 'charge', arguments: {} }, { timeoutMs: 50 }),
    ).rejects.toMatchObject({ code: 'INVALID_OPTIONS', option: 'timeoutMs' });
    expect(charged).toEqual([]);
  });
});

describe('an option neither method knows', () => {
  const runtime = () => createToolRuntime({ tools: [chargeTool().tool] });
  const many = (extra: object) => () =>
    runtime().executeToolCalls({ messages: [user], response: charge('c1'), ...extra } as never);
  const one = (extra: object) => () => runtime().executeToolCall({ name: 'charge' }, extra as never);
  it.each([
    ['executeToolCalls', many({ sesionId: 's' }), 'sesionId', /did you mean "sessionId"/],
    ['executeToolCall', one({ decision: 'run' }), 'decision', /decisions: \{ \[toolCallId\]: decision \}/],
    [
      'executeToolCalls',
      many({ maxSteps: 5 }),
      'maxSteps',
      /not an option of executeToolCalls; known: .*messages.*sessionId/,
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
