import { describe, expect, it } from 'vitest';
import { ask, decide, refunds } from './approval.js';

describe('the README approval example', () => {
  it('pauses before the refund, and runs it once a person approves', async () => {
    const saved = await ask();
    expect(refunds).toEqual([]);
    const outcome = await decide(saved, true);
    expect(outcome).toMatchObject({ type: 'completed', text: 'Refunded.' });
    expect(refunds).toEqual(['A-1']);
  });

  it('a refusal never runs the tool; the model is told it is not permitted', async () => {
    refunds.length = 0;
    const outcome = await decide(await ask(), false);
    expect(refunds).toEqual([]);
    expect(outcome.messages.find((m) => m.role === 'tool')).toMatchObject({ errorCode: 'PERMISSION_DENIED' });
  });
});
