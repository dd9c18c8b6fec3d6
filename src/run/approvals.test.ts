import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import { ApprovalError } from '../core/errors/approval-error.js';
import { CallbackError } from '../core/errors/callback-error.js';
import { StoreError } from '../core/errors/store-error.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { historyProblems } from '../testing/history-problems.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { storeWith } from '../testing/store-with.js';
import {
  APPROVE,
  approvalShop,
  DIGEST,
  DONE,
  interrupted,
  pause,
  pauseAndDecide,
  REFUND_ARGUMENTS,
  ROUND,
  refusal,
  resume,
  USER,
} from './__fixtures__/approval-runs.js';
import { readPendingRun } from './pending-run.js';
import { runToolLoop } from './run-tool-loop.js';

// Human approval that survives a restart: a call that needs approval pauses its run, the run is kept in the
// store under its id, and a resume by that id (in this process or any other) runs the approved call once.

describe('human approval: the run pauses, is kept in the store, and resumes by its id', () => {
  it('pauses at the call that needs approval after running the calls of its response that need none, and keeps the run under its id', async () => {
    const store = new MemoryStore();
    const { outcome, shop } = await pause(store);
    expect(shop.refunds).toEqual([]);
    expect(shop.reads).toEqual(['A-1']);
    expect(outcome.pending).toEqual([
      {
        toolCallId: 'r1',
        toolName: 'refundOrder',
        arguments: REFUND_ARGUMENTS,
        argumentsSummary: REFUND_ARGUMENTS,
        argumentsDigest: DIGEST,
        reason: 'needs approval',
      },
    ]);
    expect(outcome.runId).toBe(outcome.state.runId);
    const kept = await readPendingRun(store, outcome.runId);
    expect(kept.state).toEqual(outcome.state);
    expect(kept.pending).toEqual(outcome.pending);
    expect(kept.expiresAt).toBeGreaterThan(Date.now());
  });

  it('approved: the call runs once, the loop goes on, every answer follows the assistant message in order; a replay is refused', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    const { done, shop, model } = resume(store, outcome.runId, APPROVE);
    const finished = await done;
    expect(finished).toMatchObject({ type: 'completed', text: DONE.content, roundTrips: 2, toolCalls: 2 });
    expect(shop.refunds).toEqual(['A-1']);
    expect(shop.reads).toEqual([]);
    expect(historyProblems(finished.messages)).toEqual([]);
    expect(
      model.requests[0]?.messages.slice(1).map((m) => (m.role === 'tool' ? m.toolCallId : m.role)),
    ).toEqual(['assistant', 'r1', 'g1']);

    const replay = resume(store, outcome.runId, APPROVE);
    expect((await refusal(replay.done)).reason).toBe('already-resumed');
    expect(replay.shop.refunds).toEqual([]);
    expect(replay.model.callCount).toBe(0);
  });

  it('denied: the tool never runs, the model is told only that it is not permitted (or the person’s message), and the denial is an audit event', async () => {
    const store = new MemoryStore();
    /** A fresh paused run, refused with `decision`; what the model was told of the refund, and the events. */
    const refuse = async (decision: unknown, extra: { readonly deniedText?: string } = {}) => {
      const { done, recorder, shop } = await pauseAndDecide(store, decision, extra);
      expect(shop.refunds).toEqual([]);
      return { answer: done.messages.find((m) => m.role === 'tool' && m.toolCallId === 'r1'), recorder };
    };
    const { answer, recorder } = await refuse({ approve: false });
    expect(answer).toMatchObject({
      isError: true,
      errorCode: 'PERMISSION_DENIED',
      content: 'PERMISSION_DENIED: This action is not permitted; do not repeat this call.',
    });
    expect(recorder.ofType('tool-call-end').filter((e) => e.outcome === 'denied')).toEqual([
      expect.objectContaining({ toolCallId: 'r1', denialReason: 'denied by a resume decision' }),
    ]);
    const told = await refuse(
      { approve: false, message: 'Refunds over 200 need a manager.' },
      { deniedText: 'Not allowed.' },
    );
    expect(told.answer).toMatchObject({ content: 'PERMISSION_DENIED: Refunds over 200 need a manager.' });
    const policyText = await refuse('deny', { deniedText: 'Not allowed.' });
    expect(policyText.answer).toMatchObject({ content: 'PERMISSION_DENIED: Not allowed.' });
  });

  it('two resumes at once: exactly one runs the approved call, the other is refused as already-resumed', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    let executions = 0;
    const counted = createToolRuntime({
      store,
      tools: approvalShop().tools.map((tool) =>
        tool.name === 'refundOrder'
          ? { ...tool, execute: () => ({ refunded: true, execution: ++executions }) }
          : tool,
      ),
    });
    const attempt = () =>
      runToolLoop({
        from: { runId: outcome.runId },
        runtime: counted,
        model: new ScriptedModel({ script: [DONE] }),
        decisions: APPROVE,
      });
    const settled = await Promise.allSettled([attempt(), attempt()]);
    expect(settled.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = settled.find((result) => result.status === 'rejected');
    expect(ApprovalError.isInstance(rejected?.reason)).toBe(true);
    expect(rejected?.reason).toMatchObject({ reason: 'already-resumed' });
    expect(executions).toBe(1);
  });

  it('a resumed run that pauses again is kept again, and resumes again by the same id', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    const again = assistantWithCalls([
      { name: 'refundOrder', arguments: { orderId: 'B-2', amount: 300 }, id: 'r2' },
    ]);
    const first = resume(store, outcome.runId, APPROVE, new ScriptedModel({ script: [again] }));
    const paused = interrupted(await first.done);
    expect(paused.runId).toBe(outcome.runId);
    expect(paused.pending.map((call) => call.toolCallId)).toEqual(['r2']);
    expect(first.shop.refunds).toEqual(['A-1']);
    const second = resume(store, outcome.runId, {
      r2: { approve: true, argumentsDigest: paused.pending[0]?.argumentsDigest },
    });
    expect((await second.done).type).toBe('completed');
    expect(second.shop.refunds).toEqual(['B-2']);
  });

  it('a state passed around is yours: a second resume of it replays the approved refund (it ran once), and the run is no longer resumable by its id', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    const saved = JSON.stringify(outcome.state);
    const shop = approvalShop();
    const runtime = createToolRuntime({ store, tools: shop.tools });
    const model = () => new ScriptedModel({ script: [DONE] });
    const done = await runToolLoop({ from: saved, runtime, model: model(), decisions: { r1: 'run' } });
    expect(done.type).toBe('completed');
    const again = await runToolLoop({ from: saved, runtime, model: model(), decisions: { r1: 'run' } });
    expect(again.toolResults.find((result) => result.toolCallId === 'r1')?.replayOf).toBe('r1');
    expect(shop.refunds).toEqual(['A-1']);
    const byId = resume(store, outcome.runId, APPROVE);
    expect((await refusal(byId.done)).reason).toBe('already-resumed');
    expect(byId.shop.refunds).toEqual([]);
  });

  it('a paused run the store cannot keep rejects with CallbackError, which carries the interrupted outcome', async () => {
    const down = storeWith({
      set: () => Promise.reject(new StoreError({ reason: 'unavailable', operation: 'set', message: 'down' })),
    });
    const error = await runToolLoop({
      model: new ScriptedModel({ script: [ROUND] }),
      messages: USER,
      runtime: createToolRuntime({ tools: approvalShop().tools, store: down }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallbackError);
    expect(error).toMatchObject({ callback: 'store.set', outcome: { type: 'interrupted' } });
  });
});
