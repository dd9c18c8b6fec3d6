import { describe, expect, it } from 'vitest';
import { CallbackError } from '../core/errors/callback-error.js';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { defineTool } from '../tools/define-tool.js';
import { argumentsDigest } from './arguments-digest.js';
import type { NeedsApproval, PolicyNeedsApproval } from './needs-approval.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'Pay the two invoices and show the balance.' };

function payTools(needsApproval?: NeedsApproval<{ amount: number }>) {
  const ran: string[] = [];
  const tools = [
    defineTool({
      name: 'pay',
      description: 'Pays an amount.',
      effect: 'write',
      input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      ...(needsApproval === undefined ? {} : { needsApproval }),
      execute: ({ amount }: { amount: number }) => {
        ran.push(`pay ${amount}`);
        return { paid: amount };
      },
    }),
    defineTool({
      name: 'balance',
      description: 'The balance.',
      effect: 'read',
      execute: () => {
        ran.push('balance');
        return { balance: 1000 };
      },
    }),
  ];
  return { tools, ran };
}

const response = assistantWithCalls([
  { name: 'pay', arguments: { amount: 50 }, id: 'p1' },
  { name: 'pay', arguments: { amount: 5000 }, id: 'p2' },
  { name: 'balance', arguments: {}, id: 'b1' },
]);

describe('needsApproval', () => {
  it('a tool’s rule of its arguments: only the calls it names wait, the others of the response run', async () => {
    const { tools, ran } = payTools(({ amount }) => amount > 100);
    const result = await createToolRuntime({ tools }).executeToolCalls({ messages: [user], response });
    // Concurrent calls: the order they ran in is not the model's (a write waits for its idempotency claim).
    expect(ran.sort()).toEqual(['balance', 'pay 50']);
    expect(result.interrupted).toEqual([
      {
        toolCallId: 'p2',
        toolName: 'pay',
        arguments: '{"amount":5000}',
        argumentsSummary: '{"amount":5000}',
        argumentsDigest: argumentsDigest('pay', '{"amount":5000}'),
        reason: 'needs approval',
      },
    ]);
    expect(result.messages.map((m) => (m.role === 'tool' ? m.toolCallId : m.role))).toEqual([
      'user',
      'assistant',
      'p1',
      'b1',
    ]);
  });

  it('the policy’s rule sees the whole call and the context; true makes every call wait, and then none runs', async () => {
    const seen: unknown[] = [];
    const rule: PolicyNeedsApproval = (call, context) => {
      seen.push([call.toolName, call.arguments, context.data]);
      return call.tool.effect === 'write';
    };
    const { tools, ran } = payTools();
    const result = await createToolRuntime({ tools, needsApproval: rule }).executeToolCalls({
      messages: [user],
      response,
      data: 'd',
    });
    expect(ran).toEqual(['balance']);
    expect(result.interrupted?.map((call) => call.toolCallId)).toEqual(['p1', 'p2']);
    expect(seen).toEqual([
      ['pay', { amount: 50 }, 'd'],
      ['pay', { amount: 5000 }, 'd'],
      ['balance', {}, 'd'],
    ]);

    const all = payTools();
    const paused = await createToolRuntime({ tools: all.tools, needsApproval: true }).executeToolCalls({
      messages: [user],
      response,
    });
    expect(all.ran).toEqual([]);
    expect(paused.results).toEqual([]);
    expect(paused.messages).toEqual([user, response]);
  });

  it('a hook that interrupts gives the reason; a hook that denies settles the call; the rule is then not asked', async () => {
    let asked = 0;
    const { tools } = payTools(() => {
      asked++;
      return true;
    });
    const result = await createToolRuntime({
      tools,
      beforeToolCall: ({ toolCallId }) =>
        toolCallId === 'p1'
          ? { type: 'deny', reason: 'blocked payee' }
          : toolCallId === 'p2'
            ? { type: 'interrupt', reason: 'over the limit' }
            : undefined,
    }).executeToolCalls({ messages: [user], response });
    expect(asked).toBe(0);
    expect(result.interrupted?.map((call) => [call.toolCallId, call.reason])).toEqual([
      ['p2', 'over the limit'],
    ]);
    expect(result.results.map((r) => (r.type === 'error' ? r.code : r.toolCallId))).toEqual([
      'PERMISSION_DENIED',
      'b1',
    ]);
  });

  it.each([
    ['answers something else than a boolean', () => 'yes'],
    [
      'throws',
      () => {
        throw new Error('rules engine down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('rules engine down'))],
  ])('a rule that %s fails closed: CallbackError (needsApproval), and no call runs', async (_name, rule) => {
    const { tools, ran } = payTools(rule as unknown as NeedsApproval<{ amount: number }>);
    const error = await createToolRuntime({ tools })
      .executeToolCalls({ messages: [user], response })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallbackError);
    expect(error).toMatchObject({ callback: 'needsApproval' });
    expect(ran).toEqual([]);
  });

  it('one call: executeToolCall reports it waiting, and runs it on an approval of its digest only', async () => {
    const { tools, ran } = payTools(true);
    const runtime = createToolRuntime({ tools });
    const call = { id: 'p9', name: 'pay', arguments: '{"amount": 70}' };
    const first = await runtime.executeToolCall(call);
    expect(first).toMatchObject({ type: 'interrupted', pending: { reason: 'needs approval' } });
    const digest = first.type === 'interrupted' ? first.pending.argumentsDigest : '';
    // The digest is of the canonical arguments: the same call, written with other whitespace, matches.
    expect(digest).toBe(argumentsDigest('pay', '{"amount":70}'));
    await expect(
      runtime.executeToolCall(
        { ...call, arguments: '{"amount": 7000}' },
        { decisions: { p9: { approve: true, argumentsDigest: digest } } },
      ),
    ).rejects.toMatchObject({ name: 'ApprovalError', reason: 'arguments-changed' });
    expect(ran).toEqual([]);
    const second = await runtime.executeToolCall(call, {
      decisions: { p9: { approve: true, argumentsDigest: digest } },
    });
    expect(second).toMatchObject({ type: 'answered', isError: false });
    expect(ran).toEqual(['pay 70']);
  });

  it('is refused when it is neither a flag nor a function', () => {
    expect(() => createToolRuntime({ tools: [], needsApproval: 'always' as unknown as boolean })).toThrow(
      'Invalid option needsApproval',
    );
  });
});
