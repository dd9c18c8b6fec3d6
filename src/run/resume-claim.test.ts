import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import { DEFAULT_APPROVAL_TTL_MS, DEFAULT_RESUME_CLAIM_LEASE_MS } from '../core/defaults.js';
import { CallbackError } from '../core/errors/callback-error.js';
import { MemoryStore } from '../store/memory-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { storeWith } from '../testing/store-with.js';
import { APPROVE, approvalShop, DONE, pause, refusal, resume } from './__fixtures__/approval-runs.js';
import { claimPendingRun, readPendingRun, runStateKey } from './pending-run.js';
import { runToolLoop } from './run-tool-loop.js';

// A resume claims the paused run for a lease: nobody else resumes it meanwhile. A claim whose resume died
// (or failed before it wrote the run's record) is abandoned once its lease has passed, and the next resume
// takes it over; an approved write still runs once, its idempotency record answering a second run of it.

afterEach(() => {
  vi.useRealTimers();
});

/** Moves this process's clock (Date only: timers run in real time) forward by `ms`. */
function later(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
}

describe("a resume's claim on a paused run holds for a lease", () => {
  it('a resume that died after claiming holds the run until its lease passes; then the next resume takes it over and runs the approved call once', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    const stored = await readPendingRun(store, outcome.runId);
    await claimPendingRun(store, stored, { ttlMs: DEFAULT_APPROVAL_TTL_MS, leaseMs: 60_000 });

    const early = resume(store, outcome.runId, APPROVE);
    const refused = await refusal(early.done);
    expect(refused.reason).toBe('already-resumed');
    expect(refused.message).toMatch(/another resume claimed it \(its claim holds until /);
    expect(early.shop.refunds).toEqual([]);

    later(60_001);
    expect((await readPendingRun(store, outcome.runId)).pending.map((call) => call.toolCallId)).toEqual([
      'r1',
    ]);
    const taker = resume(store, outcome.runId, APPROVE);
    expect(await taker.done).toMatchObject({ type: 'completed', text: DONE.content });
    expect(taker.shop.refunds).toEqual(['A-1']);
    const replay = resume(store, outcome.runId, APPROVE);
    expect((await refusal(replay.done)).reason).toBe('already-resumed');
    expect(replay.shop.refunds).toEqual([]);
  });

  it('a resume still running past its lease is overtaken, and the approved write does not run twice: the second run of it is a replay', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    let asked!: () => void;
    const modelAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let answer!: () => void;
    const slowModel = new ScriptedModel({
      script: [
        () =>
          new Promise((resolve) => {
            answer = () => resolve(DONE);
            asked();
          }),
      ],
    });
    // The first resume runs the approved refund, then waits for its model past the claim's lease.
    const slow = resume(store, outcome.runId, APPROVE, slowModel);
    slow.done.catch(() => {});
    await modelAsked;
    expect(slow.shop.refunds).toEqual(['A-1']);

    later(DEFAULT_RESUME_CLAIM_LEASE_MS + 1);
    const taker = resume(store, outcome.runId, APPROVE);
    const finished = await taker.done;
    expect(finished).toMatchObject({ type: 'completed' });
    expect(taker.shop.refunds).toEqual([]);
    const refund = finished.messages.find((m) => m.role === 'tool' && m.toolCallId === 'r1');
    expect(refund).toMatchObject({ isError: false });
    expect(refund?.role === 'tool' && refund.content).toContain('Already done');

    // The overtaken resume ends too, but may not write over the record of the one that took it over.
    answer();
    const error = await slow.done.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(CallbackError.isInstance(error)).toBe(true);
    expect(slow.shop.refunds).toEqual(['A-1']);
    expect((await refusal(resume(store, outcome.runId, APPROVE).done)).reason).toBe('already-resumed');
  });

  it('a claim without a lease (written before claims had one) is never taken over', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    const key = runStateKey(outcome.runId);
    const entry = await store.get(key);
    await store.set(key, { ...(entry?.value as object), status: 'resuming' });
    later(DEFAULT_RESUME_CLAIM_LEASE_MS * 100);
    const refused = await refusal(resume(store, outcome.runId, APPROVE).done);
    expect(refused).toMatchObject({ reason: 'already-resumed' });
  });

  it('a claim that lands after the resume was aborted (before its deadline) is given back: the next resume runs the approved call', async () => {
    const store = new MemoryStore();
    const { outcome } = await pause(store);
    const key = runStateKey(outcome.runId);
    let land: (() => void) | undefined;
    const held = storeWith(
      {
        set: (k, value, options) =>
          k === key && land === undefined
            ? new Promise((resolve, reject) => {
                land = () => store.set(k, value, options).then(resolve, reject);
              })
            : store.set(k, value, options),
      },
      store,
    );
    const caller = new AbortController();
    const aborted = runToolLoop({
      from: { runId: outcome.runId },
      runtime: createToolRuntime({ tools: approvalShop().tools, store: held }),
      model: new ScriptedModel({ script: [DONE] }),
      decisions: APPROVE,
      signal: caller.signal,
    });
    await vi.waitFor(() => expect(land).toBeDefined());
    caller.abort(new Error('client gone'));
    await expect(aborted).rejects.toThrow('client gone');
    land?.();
    await vi.waitFor(async () =>
      expect((await readPendingRun(store, outcome.runId)).runId).toBe(outcome.runId),
    );
    const next = resume(store, outcome.runId, APPROVE);
    expect(await next.done).toMatchObject({ type: 'completed' });
    expect(next.shop.refunds).toEqual(['A-1']);
  });
});
