import { describe, expect, it } from 'vitest';
import { argumentsDigest } from '../chain/arguments-digest.js';
import { createToolRuntime } from '../chain/runtime.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { StoreError } from '../core/errors/store-error.js';
import { MemoryStore } from '../store/memory-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { APPROVE, approvalShop, DIGEST, DONE, pause, refusal, resume } from './__fixtures__/approval-runs.js';
import { runStateKey } from './pending-run.js';
import { runToolLoop } from './run-tool-loop.js';

// A resume that cannot be matched to what waits runs nothing: each refusal is typed, comes before anything
// runs, and leaves the run waiting as it was.

describe('approval refusals: fail closed', () => {
  it('refuses, before anything runs, changed arguments, an unknown run, a call the run does not wait for and an approval without its digest; the run still waits', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    const changed = resume(store, outcome.runId, {
      r1: {
        approve: true,
        argumentsDigest: argumentsDigest('refundOrder', '{"orderId":"A-1","amount":25000}'),
      },
    });
    expect(await refusal(changed.done)).toMatchObject({ reason: 'arguments-changed', toolCallId: 'r1' });
    const unknown = resume(store, 'no-such-run', APPROVE);
    expect(await refusal(unknown.done)).toMatchObject({ reason: 'unknown-run', runId: 'no-such-run' });
    const notWaiting = resume(store, outcome.runId, {
      ...APPROVE,
      g1: { approve: true, argumentsDigest: DIGEST },
    });
    expect(await refusal(notWaiting.done)).toMatchObject({ reason: 'not-pending', toolCallId: 'g1' });
    const short = resume(store, outcome.runId, { r1: 'run' });
    await expect(short.done).rejects.toBeInstanceOf(InvalidOptionsError);
    const malformed = resume(store, outcome.runId, { r1: { approve: 'yes' } });
    await expect(malformed.done).rejects.toBeInstanceOf(InvalidOptionsError);
    for (const attempt of [changed, unknown, notWaiting, short, malformed]) {
      expect(attempt.shop.refunds).toEqual([]);
      expect(attempt.model.callCount).toBe(0);
    }
    // Nothing of the refused resumes was applied: the right approval still runs the call.
    const approved = resume(store, outcome.runId, APPROVE);
    expect((await approved.done).type).toBe('completed');
    expect(approved.shop.refunds).toEqual(['A-1']);
  });

  it('arguments changed in the store after the person saw them: the record is refused whole (paused-run-binding), and nothing runs', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    // Someone with write access to the store raises the amount, consistently (call, pending entry, digest).
    const key = runStateKey(outcome.runId);
    const entry = await store.get(key);
    const record = structuredClone(entry?.value) as {
      state: { messages: { toolCalls?: { arguments: string }[] }[]; pending: Record<string, string>[] };
    };
    const raised = '{"orderId":"A-1","amount":25000}';
    const call = record.state.messages[1]?.toolCalls?.[0];
    if (call === undefined) throw new Error('no call to tamper with');
    call.arguments = raised;
    record.state.pending[0] = {
      ...record.state.pending[0],
      arguments: raised,
      argumentsDigest: argumentsDigest('refundOrder', raised),
    };
    await store.set(key, record);
    const attempt = resume(store, outcome.runId, APPROVE);
    await expect(attempt.done).rejects.toMatchObject({ name: 'RunStateError', reason: 'tampered' });
    expect(attempt.shop.refunds).toEqual([]);
  });

  it('a call added to the stored paused round with a matching pending entry: refused whole (paused-run-binding), nothing runs', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    const key = runStateKey(outcome.runId);
    const record = structuredClone((await store.get(key))?.value) as {
      state: {
        messages: { toolCalls?: { id: string; name: string; arguments: string }[] }[];
        pending: object[];
      };
    };
    const added = { id: 'call_added', name: 'refundOrder', arguments: '{"orderId":"A-1","amount":5}' };
    record.state.messages[1]?.toolCalls?.push(added);
    record.state.pending.push({
      toolCallId: added.id,
      toolName: added.name,
      arguments: added.arguments,
      argumentsSummary: added.arguments,
      argumentsDigest: argumentsDigest(added.name, added.arguments),
      reason: 'needs approval',
    });
    await store.set(key, record);
    const attempt = resume(store, outcome.runId, APPROVE);
    await expect(attempt.done).rejects.toMatchObject({ name: 'RunStateError', reason: 'tampered' });
    expect(attempt.shop.refunds).toEqual([]);
  });

  it('an approval window that is over is refused as expired; a record nobody wrote is a corrupt store', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store, { approvalTtlMs: 60_000 });
    const key = runStateKey(outcome.runId);
    const entry = await store.get(key);
    await store.set(key, { ...(entry?.value as object), expiresAt: Date.now() - 1 });
    const late = resume(store, outcome.runId, APPROVE);
    expect((await refusal(late.done)).reason).toBe('expired');
    expect(late.shop.refunds).toEqual([]);
    await store.set(key, { status: 'pending', expiresAt: Date.now() + 60_000, state: 'not a state' });
    // Without the binding the run writes beside its state, the record is none of toolwarden's.
    const corrupt = resume(store, outcome.runId, APPROVE).done;
    await expect(corrupt).rejects.toMatchObject({ name: 'StoreError', reason: 'corrupt' });
    await store.set(key, { hello: 'world' });
    const foreign = resume(store, outcome.runId, APPROVE).done.catch((e: unknown) => e);
    expect(StoreError.isInstance(await foreign)).toBe(true);
  });

  it('refuses, as options, a resume by id with no store to read it from, a run id that is no id, and hostile decisions', async () => {
    const model = new ScriptedModel({ script: [DONE] });
    const tools = approvalShop().tools;
    await expect(runToolLoop({ from: { runId: 'r' }, tools, model })).rejects.toMatchObject({
      option: 'from',
    });
    await expect(
      runToolLoop({
        from: { runId: 42 as unknown as string },
        runtime: createToolRuntime({ tools, store: new MemoryStore() }),
        model,
      }),
    ).rejects.toMatchObject({ option: 'from' });
    await expect(
      runToolLoop({
        from: { runId: 'r' },
        runtime: createToolRuntime({ tools, store: new MemoryStore() }),
        model,
        approvalTtlMs: 0,
      }),
    ).rejects.toMatchObject({ option: 'approvalTtlMs' });
    // Hostile decisions: a list, a Proxy whose traps throw, a decision whose getter throws.
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    const trap = () => {
      throw new Error('trap');
    };
    for (const decisions of [
      [APPROVE],
      new Proxy({}, { ownKeys: trap }),
      { r1: Object.defineProperty({}, 'approve', { get: trap, enumerable: true }) },
    ]) {
      const attempt = resume(store, outcome.runId, decisions);
      await expect(attempt.done).rejects.toBeInstanceOf(InvalidOptionsError);
      expect(attempt.shop.refunds).toEqual([]);
    }
  });
});
