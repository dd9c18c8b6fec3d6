import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/message.js';
import { needsApproval, refundShop } from '../../run/__fixtures__/refund-shop.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { MemoryStore } from '../../store/memory-store.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { createToolRuntime } from '../runtime.js';

const USER: readonly Message[] = [{ role: 'user', content: 'Refund order A-1.' }];
const REFUND = assistantWithCalls([{ name: 'refundOrder', arguments: { orderId: 'A-1' }, id: 'r1' }]);
const DONE = { role: 'assistant' as const, content: 'Refunded.' };

describe('a person approves twice (a double click, a retried request)', () => {
  it('the approved refund runs once: the second resume gets the first one’s result, marked as a replay', async () => {
    const shop = refundShop();
    const store = new MemoryStore();
    const options = {
      runtime: createToolRuntime({ tools: shop.tools, decide: needsApproval, store }),
      sessionId: 'session-1',
    };
    const paused = await runToolLoop({
      ...options,
      model: new ScriptedModel({ script: [REFUND] }),
      messages: USER,
    });
    expect(paused.type).toBe('interrupted');
    const saved = JSON.stringify(paused.state);
    const approve = () =>
      runToolLoop({
        from: saved,
        ...options,
        model: new ScriptedModel({ script: [DONE] }),
        decisions: { r1: 'run' },
      });
    const [first, second] = await Promise.all([approve(), approve()]);
    const third = await approve();
    expect(shop.refunds).toEqual(['A-1']);
    const replays = [first, second, third].map(
      (outcome) => outcome.toolResults.find((result) => result.toolCallId === 'r1')?.replayOf,
    );
    expect(replays.filter((replayOf) => replayOf === 'r1')).toHaveLength(2);
  });
});
