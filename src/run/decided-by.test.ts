import { describe, expect, it } from 'vitest';
import { argumentsDigest } from '../chain/arguments-digest.js';
import { createToolRuntime } from '../chain/runtime.js';
import { DEFAULT_MAX_DECIDED_BY_CHARS } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { approvalShop, DIGEST, DONE, pause, pauseAndDecide } from './__fixtures__/approval-runs.js';
import { runToolLoop } from './run-tool-loop.js';

// Who decided: a resume decision's `by` goes, as given but bounded, onto the decided call's result and its
// `tool-call-end` event (`decidedBy`, next to `approval`), and from there into the audit record.

/** A fresh paused run resumed with `decision` for its refund: the refund's result and end event, and the refunds made. */
async function decide(decision: unknown) {
  const { done, recorder, shop } = await pauseAndDecide(new MemoryStore(), decision);
  const end = recorder.ofType('tool-call-end').find((event) => event.toolCallId === 'r1');
  const result = done.toolResults.find((entry) => entry.toolCallId === 'r1');
  return { end, result, refunds: shop.refunds };
}

describe('a resume decision names who decided (`by`)', () => {
  it('approved with by: the call runs, and its result and end event say approved, by whom', async () => {
    const { end, result, refunds } = await decide({ approve: true, argumentsDigest: DIGEST, by: 'alice' });
    expect(refunds).toHaveLength(1);
    expect(end).toMatchObject({ approval: 'approved', decidedBy: 'alice', outcome: 'success' });
    expect(result).toMatchObject({ type: 'success', approval: 'approved', decidedBy: 'alice' });
  });

  it('denied with by: nothing runs, and the denial says by whom; a name of any script is kept as given', async () => {
    const by = 'Zoë Ångström (ops) 🛡';
    const { end, result, refunds } = await decide({ approve: false, message: 'Not today.', by });
    expect(refunds).toEqual([]);
    expect(end).toMatchObject({ approval: 'denied', decidedBy: by, outcome: 'denied' });
    expect(result).toMatchObject({ code: 'PERMISSION_DENIED', approval: 'denied', decidedBy: by });
  });

  it('without by: the approval is there and no decidedBy field at all', async () => {
    for (const decision of [{ approve: true, argumentsDigest: DIGEST }, { approve: false }, 'deny']) {
      const { end, result } = await decide(decision);
      expect(end?.approval).toBeDefined();
      expect(end).not.toHaveProperty('decidedBy');
      expect(result).not.toHaveProperty('decidedBy');
    }
  });

  it(`takes a by of exactly ${DEFAULT_MAX_DECIDED_BY_CHARS} characters`, async () => {
    const by = 'x'.repeat(DEFAULT_MAX_DECIDED_BY_CHARS);
    const { end } = await decide({ approve: true, argumentsDigest: DIGEST, by });
    expect(end).toMatchObject({ decidedBy: by });
  });

  it('refuses a hostile by clearly, before anything runs, and the run still waits for its decision', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    const hostile: unknown[] = [
      'x'.repeat(DEFAULT_MAX_DECIDED_BY_CHARS + 1),
      'alice\nINFO approved by root',
      'alice\u0000',
      '\u001b[31malice',
      'alice\u0085',
      'alice\u2028bob',
      '',
      '   ',
      42,
      null,
      { id: 'alice' },
      ['alice'],
    ];
    const shop = approvalShop();
    for (const by of hostile) {
      for (const decision of [
        { approve: true, argumentsDigest: DIGEST, by },
        { approve: false, by },
      ]) {
        const error = await runToolLoop({
          from: { runId: outcome.runId },
          runtime: createToolRuntime({ tools: shop.tools, store }),
          model: new ScriptedModel({ script: [DONE] }),
          decisions: { r1: decision as unknown as 'deny' },
        }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(InvalidOptionsError);
        expect(error).toMatchObject({ option: 'decisions.r1.by' });
        const { message } = error as Error;
        expect(message).toContain(`at most ${DEFAULT_MAX_DECIDED_BY_CHARS} characters`);
        // The refusal quotes the value escaped and cut: it cannot forge a line of a log.
        expect(message).not.toMatch(/[\p{Cc}\u2028]/u);
        expect(message.length).toBeLessThan(400);
      }
    }
    expect(shop.refunds).toEqual([]);
    // Nothing was claimed: the run still waits, and a good decision runs it.
    const resumed = await runToolLoop({
      from: { runId: outcome.runId },
      runtime: createToolRuntime({ tools: shop.tools, store }),
      model: new ScriptedModel({ script: [DONE] }),
      decisions: { r1: { approve: true, argumentsDigest: DIGEST, by: 'alice' } },
    });
    expect(resumed.type).toBe('completed');
    expect(shop.refunds).toHaveLength(1);
  });

  it('works the same for an execution resumed from its messages (executeToolCalls with a Map of decisions)', async () => {
    const ran: string[] = [];
    const write = defineTool({
      name: 'write',
      description: 'Writes.',
      effect: 'write',
      idempotency: false,
      needsApproval: true,
      execute: (args: { n: number }) => {
        ran.push(String(args.n));
        return 'ok';
      },
    });
    const runtime = createToolRuntime({ tools: [write] });
    const response = assistantWithCalls([{ name: 'write', arguments: { n: 2 }, id: 'w1' }]);
    const messages = [{ role: 'user' as const, content: 'write 2' }];
    const first = await runtime.executeToolCalls({ messages, response });
    expect(first.interrupted?.map((call) => call.toolCallId)).toEqual(['w1']);
    const recorder = recordEvents();
    const resumed = await runtime.executeToolCalls({
      messages: first.messages,
      response,
      decisions: { w1: { approve: true, argumentsDigest: argumentsDigest('write', '{"n":2}'), by: 'bob' } },
      onEvent: recorder.listener,
    });
    expect(ran).toEqual(['2']);
    expect(resumed.results[0]).toMatchObject({ approval: 'approved', decidedBy: 'bob' });
    expect(recorder.ofType('tool-call-end')).toEqual([
      expect.objectContaining({ toolCallId: 'w1', approval: 'approved', decidedBy: 'bob' }),
    ]);
  });
});
