import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { argumentsDigest } from '../chain/arguments-digest.js';
import { createToolRuntime } from '../chain/runtime.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { RunStateError } from '../core/errors/run-state-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Message } from '../core/message.js';
import type { Store } from '../core/store.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { historyProblems } from '../testing/history-problems.js';
import { recordEvents } from '../testing/record-events.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { needsApproval, refundShop } from './__fixtures__/refund-shop.js';
import { runToolLoop } from './run-tool-loop.js';
import { guardKey } from './session-guard.js';

// Interrupt and resume, end to end, with a `decide` policy: a refund waits for a person; everything
// else runs (the approval workflow through `needsApproval` and a store is in approvals.test.ts).

const USER: readonly Message[] = [{ role: 'user', content: 'Refund order A-1, then tell me its status.' }];
const ROUND = assistantWithCalls([
  { name: 'refundOrder', arguments: { orderId: 'A-1' }, id: 'r1' },
  { name: 'getOrder', arguments: { orderId: 'A-1' }, id: 'g1' },
]);
const DONE = { role: 'assistant' as const, content: 'Refunded; the order now shows as refunded.' };

function interrupted(outcome: LoopOutcome) {
  if (outcome.type !== 'interrupted') throw new Error(`expected interrupted, got ${outcome.type}`);
  return outcome;
}

/** The refund round, run until it pauses for approval. */
async function pauseAtRefund(
  tools: ReturnType<typeof refundShop>['tools'],
  extra: { readonly sessionId?: string; readonly store?: Store } = {},
) {
  const { store, ...session } = extra;
  return interrupted(
    await runToolLoop({
      model: new ScriptedModel({ script: [ROUND] }),
      messages: USER,
      runtime: createToolRuntime({
        tools,
        decide: needsApproval,
        ...(store === undefined ? {} : { store }),
      }),
      ...session,
    }),
  );
}

describe('interrupt and resume', () => {
  it('pauses the refund, runs the read of the same response, and resumes from JSON: approved', async () => {
    const first = refundShop();
    const paused = await pauseAtRefund(first.tools);
    expect(paused.pending).toEqual([
      {
        toolCallId: 'r1',
        toolName: 'refundOrder',
        arguments: '{"orderId":"A-1"}',
        argumentsSummary: '{"orderId":"A-1"}',
        argumentsDigest: argumentsDigest('refundOrder', '{"orderId":"A-1"}'),
        reason: 'refunds need a person',
        payload: { amount: 42 },
      },
    ]);
    expect(first.refunds).toEqual([]);
    expect(first.reads).toEqual(['A-1']);
    expect(paused).toMatchObject({ roundTrips: 1, toolCalls: 1, runId: paused.state.runId });
    // The paused state keeps the read's answer after the assistant message.
    expect(paused.state.messages.slice(1).map((m) => (m.role === 'tool' ? m.toolCallId : m.role))).toEqual([
      'assistant',
      'g1',
    ]);
    const saved = JSON.stringify(paused.state);

    // Later, elsewhere: new tool instances, the JSON only.
    const second = refundShop();
    const model = new ScriptedModel({ script: [DONE] });
    const done = await runToolLoop({
      from: saved,
      model,
      runtime: createToolRuntime({ tools: second.tools, decide: needsApproval }),
      decisions: { r1: 'run' },
    });
    expect(done).toMatchObject({ type: 'completed', text: DONE.content, roundTrips: 2, toolCalls: 2 });
    expect(second.refunds).toEqual(['A-1']);
    expect(second.reads).toEqual([]);
    expect(historyProblems(done.messages)).toEqual([]);
    // Every call answered after the assistant message, in the model's order of the calls.
    expect(done.messages.slice(0, 4).map((m) => (m.role === 'tool' ? m.toolCallId : m.role))).toEqual([
      'user',
      'assistant',
      'r1',
      'g1',
    ]);
    expect(model.requests[0]?.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'g1' });
    expect(done.state.pending).toBeUndefined();
  });

  it('resumes in another process, from the JSON alone', async () => {
    const { tools } = refundShop();
    const paused = await pauseAtRefund(tools);
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./__fixtures__/resume-in-child.ts', import.meta.url)),
        '{"r1":"run"}',
      ],
      { input: JSON.stringify(paused.state), encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.stderr).toBe('');
    const seen = JSON.parse(child.stdout);
    expect(seen).toMatchObject({ type: 'completed', roundTrips: 2, refunds: ['A-1'], reads: [] });
    expect(seen.pid).not.toBe(process.pid);
  }, 30_000);

  it('denied: the tool never runs, the model is told only that it is not permitted, and the denial is an event', async () => {
    const first = refundShop();
    const paused = await pauseAtRefund(first.tools);
    const recorder = recordEvents();
    const done = await runToolLoop({
      from: JSON.stringify(paused.state),
      model: new ScriptedModel({ script: [DONE] }),
      runtime: createToolRuntime({ tools: first.tools, decide: needsApproval }),
      decisions: { r1: 'deny' },
      onEvent: recorder.listener,
    });
    expect(first.refunds).toEqual([]);
    expect(first.reads).toEqual(['A-1']);
    expect(done.toolCalls).toBe(2);
    const refused = done.messages.find((m) => m.role === 'tool' && m.toolCallId === 'r1');
    expect(refused).toMatchObject({ isError: true, errorCode: 'PERMISSION_DENIED' });
    expect(refused?.role === 'tool' ? refused.content : '').not.toContain('person');
    expect(
      recorder
        .ofType('tool-call-end')
        .filter((e) => e.outcome === 'denied')
        .map((event) => event.toolCallId),
    ).toEqual(['r1']);
    expect(recorder.ofType('run-start')[0]).toMatchObject({ resumed: true });
  });

  it('an undecided call is asked again, and pauses the run again', async () => {
    const { tools } = refundShop();
    const paused = await pauseAtRefund(tools);
    const again = interrupted(
      await runToolLoop({
        from: paused.state,
        model: new ScriptedModel({ script: [] }),
        runtime: createToolRuntime({ tools, decide: needsApproval }),
      }),
    );
    expect(again.pending.map((call) => call.toolCallId)).toEqual(['r1']);
    expect(again.roundTrips).toBe(1);
  });

  it('refuses decisions for calls the run does not wait for, and a tampered state, before anything runs', async () => {
    const { tools, refunds, reads } = refundShop();
    const paused = await pauseAtRefund(tools);
    reads.length = 0;
    const model = new ScriptedModel({ script: [DONE] });
    await expect(
      runToolLoop({ from: paused.state, model, tools, decisions: { g1: 'run' } }),
    ).rejects.toMatchObject({ name: 'ApprovalError', reason: 'not-pending', toolCallId: 'g1' });
    await expect(
      runToolLoop({ from: paused.state, model, tools, decisions: { r1: 'yes' as 'run' } }),
    ).rejects.toBeInstanceOf(InvalidOptionsError);
    const tampered = {
      ...paused.state,
      pending: [{ ...paused.state.pending?.[0], arguments: '{"orderId":"B-9"}' }],
    };
    await expect(
      runToolLoop({ from: JSON.stringify(tampered), model, tools, decisions: { r1: 'run' } }),
    ).rejects.toBeInstanceOf(RunStateError);
    expect(refunds).toEqual([]);
    expect(reads).toEqual([]);
    expect(model.callCount).toBe(0);
  });

  it('resumes the fixture written for version 1', async () => {
    const { tools, refunds } = refundShop();
    const text = readFileSync(
      new URL('./__fixtures__/run-state/v1-interrupted.json', import.meta.url),
      'utf8',
    );
    const done = await runToolLoop({
      from: text,
      model: new ScriptedModel({ script: [DONE] }),
      // The fixture's run is of a session: a runtime with a store keeps it.
      runtime: createToolRuntime({ tools, store: new MemoryStore() }),
      decisions: { c2: 'run' },
    });
    expect(done).toMatchObject({ type: 'completed', roundTrips: 3, toolCalls: 3 });
    expect(refunds).toEqual(['A-1']);
    expect(historyProblems(done.messages)).toEqual([]);
  });

  it('with a store, the guard memory of the session is the store’s, and it is saved after the resume', async () => {
    const { tools } = refundShop();
    const store = new MemoryStore();
    const paused = await pauseAtRefund(tools, { sessionId: 'session-1', store });
    expect(paused.state.sessionId).toBe('session-1');
    await runToolLoop({
      from: JSON.stringify(paused.state),
      model: new ScriptedModel({ script: [DONE] }),
      runtime: createToolRuntime({ tools, store }),
      decisions: { r1: 'run' },
    });
    expect((await store.get(guardKey('session-1')))?.value).toMatchObject({
      schemaVersion: 4,
      request: 1,
      window: [{ calls: [{ tool: 'refundOrder' }, { tool: 'getOrder' }] }],
    });
  });
});

describe('a stopped run continues where it stopped', () => {
  it('a run stopped at its ceiling resumes with a higher one; nothing done is repeated', async () => {
    const { tools, reads } = refundShop();
    const read = (n: number) => assistantWithCalls([{ name: 'getOrder', arguments: { orderId: `A-${n}` } }]);
    const stopped = await runToolLoop({
      model: new ScriptedModel({ script: [read(1), read(2)] }),
      messages: USER,
      tools,
      maxRoundTrips: 2,
    });
    expect(stopped).toMatchObject({ type: 'stopped', reason: 'MAX_ROUND_TRIPS', roundTrips: 2 });
    const done = await runToolLoop({
      from: JSON.stringify(stopped.state),
      model: new ScriptedModel({ script: [read(3), DONE] }),
      tools,
      maxRoundTrips: 10,
    });
    expect(done).toMatchObject({ type: 'completed', roundTrips: 4, toolCalls: 3 });
    expect(reads).toEqual(['A-1', 'A-2', 'A-3']);
    expect(done.steps.map((step) => step.round)).toEqual([3, 4]);
  });

  it('ids generated for calls never repeat across the requests of a session', async () => {
    const runtime = createToolRuntime({ tools: refundShop().tools });
    const noIds = assistantWithCalls([
      { name: 'getOrder', arguments: { orderId: 'A-1' }, id: '' },
      { name: 'getOrder', arguments: { orderId: 'A-2' }, id: '' },
    ]);
    const ids: string[] = [];
    for (let request = 0; request < 3; request++) {
      const outcome = await runToolLoop({
        model: new ScriptedModel({ script: [noIds, DONE] }),
        messages: USER,
        runtime,
        sessionId: 'same-session',
      });
      for (const message of outcome.messages) if (message.role === 'tool') ids.push(message.toolCallId);
    }
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    for (const id of ids) expect(id).toMatch(/^tw_[0-9a-f]{24}_\d+$/);
  });
});
