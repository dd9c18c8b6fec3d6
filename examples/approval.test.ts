import { describe, expect, it } from 'vitest';
import { ApprovalError } from '../src/index.js';
import { ask, decide, refunds } from './approval.js';

describe('the README approval example', () => {
  it('pauses before the refund, and runs it once a person approves; the same approval again is refused', async () => {
    const { runId, pending } = await ask();
    expect(refunds).toEqual([]);
    const [call] = pending;
    if (call === undefined) throw new Error('nothing waits');
    expect(call).toMatchObject({ toolName: 'refundOrder', argumentsSummary: '{"orderId":"A-1"}' });
    const outcome = await decide(runId, call, true);
    expect(outcome).toMatchObject({ type: 'completed', text: 'Refunded.' });
    expect(refunds).toEqual(['A-1']);
    const replay = await decide(runId, call, true).catch((e: unknown) => e);
    expect(ApprovalError.isInstance(replay) && replay.reason).toBe('already-resumed');
    expect(refunds).toEqual(['A-1']);
  });

  it('a refusal never runs the tool; the model is told the person’s message', async () => {
    refunds.length = 0;
    const { runId, pending } = await ask();
    const outcome = await decide(runId, pending[0] as (typeof pending)[0], false);
    expect(refunds).toEqual([]);
    expect(outcome.messages.find((m) => m.role === 'tool')).toMatchObject({
      errorCode: 'PERMISSION_DENIED',
      content: 'PERMISSION_DENIED: A person declined this refund.',
    });
  });
});
