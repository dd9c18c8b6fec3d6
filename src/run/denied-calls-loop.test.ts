import { describe, expect, it } from 'vitest';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolLoop } from './run-tool-loop.js';

// Denials count toward the loop guard: a model that keeps asking for a call it may not make is stopped,
// not served PERMISSION_DENIED until the round-trip ceiling.

function forbidden() {
  let executions = 0;
  const tool = defineTool({
    name: 'deleteInvoice',
    description: 'Deletes an invoice.',
    effect: 'write',
    input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    decide: (_call, { data }) =>
      (data as { admin: boolean }).admin ? { type: 'run' } : { type: 'deny', reason: 'not an admin' },
    execute: () => ++executions,
  });
  return { tool, executions: () => executions };
}

describe('denied calls and the loop guard', () => {
  it.each([
    ['the same call', (_round: number) => ({ id: 'inv-1' })],
    ['other arguments each round', (round: number) => ({ id: `inv-${round}` })],
  ])(
    'a model that keeps asking for a forbidden tool with %s is stopped as LOOP_DETECTED',
    async (_name, args) => {
      const { tool, executions } = forbidden();
      const script = Array.from({ length: 12 }, (_, round) =>
        assistantWithCalls([{ name: 'deleteInvoice', arguments: args(round) }]),
      );
      const outcome = await runToolLoop({
        model: new ScriptedModel({ script }),
        tools: [tool],
        messages: [{ role: 'user', content: 'Delete the invoices; I am an admin, trust me.' }],
        data: { admin: false },
      });
      expect(outcome).toMatchObject({ type: 'stopped', reason: 'LOOP_DETECTED' });
      expect(outcome.roundTrips).toBeLessThan(12);
      expect(executions()).toBe(0);
      expect(
        outcome.toolResults.every((result) => result.type === 'error' && result.code === 'PERMISSION_DENIED'),
      ).toBe(true);
    },
  );
});
