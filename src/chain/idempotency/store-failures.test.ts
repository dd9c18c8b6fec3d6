import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_IDEMPOTENCY_POLL_MS, DEFAULT_STORE_TIMEOUT_MS } from '../../core/defaults.js';
import { StoreError } from '../../core/errors/store-error.js';
import type { Message } from '../../core/message.js';
import type { Store } from '../../core/store.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { MemoryStore } from '../../store/memory-store.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { recordEvents } from '../../testing/record-events.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { storeWith } from '../../testing/store-with.js';
import { defineTool } from '../../tools/define-tool.js';
import { createToolRuntime } from '../runtime.js';
import { chargeRecordKey, chargeTool } from './__fixtures__/charge-tool.js';

const args = { order: 'A-1' };
const call = { name: 'charge', arguments: args };
const outage = () => new StoreError({ reason: 'unavailable', operation: 'set', message: 'ECONNREFUSED' });
const UNAVAILABLE =
  "TOOL_UNAVAILABLE: Tool 'charge' is unavailable right now: whether this action was already done cannot be checked, so it was not run. Do not assume it ran; answer with what you have or try again later.";

afterEach(() => {
  vi.useRealTimers();
});

async function chargeWith(store: Store) {
  const { tool, ledger } = chargeTool();
  const runtime = createToolRuntime({ tools: [tool], store });
  const recorder = recordEvents();
  const outcome = await runtime.executeToolCall(call, { sessionId: 's', onEvent: recorder.listener });
  return { outcome, ledger, recorder };
}

describe('a store that fails before the write runs: it fails closed', () => {
  it.each([
    ['rejects with a StoreError', () => Promise.reject(outage()), 'StoreError'],
    ['rejects with anything else', () => Promise.reject(new Error('socket closed')), 'Error'],
    [
      'throws instead of rejecting',
      () => {
        throw new TypeError('boom');
      },
      'TypeError',
    ],
    ['answers nonsense', () => Promise.resolve(null as never), 'TypeError'],
  ])(
    'a claim that %s: not run, the model is told the tool is unavailable, the event carries the error',
    async (_what, set, errorType) => {
      const { outcome, ledger, recorder } = await chargeWith(storeWith({ set }));
      expect(ledger.charges).toHaveLength(0);
      expect(outcome).toMatchObject({
        isError: true,
        code: 'TOOL_UNAVAILABLE',
        errorClass: 'transient',
        content: UNAVAILABLE,
      });
      expect(recorder.ofType('store-fail')).toMatchObject([{ failedOpen: false, errorType }]);
      expect(recorder.ofType('tool-call-end').filter((e) => e.outcome !== 'success')).toMatchObject([
        { code: 'TOOL_UNAVAILABLE', errorType },
      ]);
    },
  );

  it('a claim that hangs: not run, once the store timeout has passed', async () => {
    vi.useFakeTimers();
    const pending = chargeWith(storeWith({ set: () => new Promise(() => {}) }));
    await vi.advanceTimersByTimeAsync(DEFAULT_STORE_TIMEOUT_MS);
    const { outcome, ledger } = await pending;
    expect(outcome).toMatchObject({ code: 'TOOL_UNAVAILABLE' });
    expect(
      outcome.type === 'answered' && outcome.result.type === 'error' && outcome.result.error,
    ).toMatchObject({
      name: 'StoreError',
      reason: 'unavailable',
      operation: 'set',
    });
    expect(ledger.charges).toHaveLength(0);
  });

  it.each([
    ['not an object', 'garbage'],
    ['another version', { v: 2, state: 'completed' }],
    ['an unknown state', { v: 1, state: 'done', argumentsDigest: 'a'.repeat(64), toolCallId: 'x' }],
    [
      'a result without content',
      {
        v: 1,
        state: 'completed',
        argumentsDigest: 'a'.repeat(64),
        toolCallId: 'x',
        result: { isError: false },
      },
    ],
    [
      'a code the chain never writes',
      {
        v: 1,
        state: 'completed',
        argumentsDigest: 'a'.repeat(64),
        toolCallId: 'x',
        result: { content: 'x', isError: true, errorCode: 'PWNED', errorClass: 'fatal' },
      },
    ],
    [
      'a started record without a lease',
      { v: 1, state: 'started', argumentsDigest: 'a'.repeat(64), toolCallId: 'x' },
    ],
  ])(
    'a record that is %s: not run, unavailable (the store holds what toolwarden did not write)',
    async (_what, value) => {
      const store = new MemoryStore();
      await store.set(chargeRecordKey('s', args), value);
      const { outcome, ledger } = await chargeWith(store);
      expect(ledger.charges).toHaveLength(0);
      expect(outcome).toMatchObject({ code: 'TOOL_UNAVAILABLE' });
      expect(
        outcome.type === 'answered' && outcome.result.type === 'error' && outcome.result.error,
      ).toMatchObject({
        name: 'StoreError',
        reason: 'corrupt',
      });
    },
  );

  it('a call of unknown effect that cannot end the window of the records: not run, unavailable', async () => {
    let runs = 0;
    const act = defineTool({ name: 'act', description: 'Acts.', effect: 'unknown', execute: () => ++runs });
    const { tool } = chargeTool();
    const runtime = createToolRuntime({
      tools: [tool, act],
      store: storeWith({ set: () => Promise.reject(outage()) }),
    });
    const recorder = recordEvents();
    const outcome = await runtime.executeToolCall(
      { name: 'act' },
      { sessionId: 's', onEvent: recorder.listener },
    );
    expect(outcome).toMatchObject({ code: 'TOOL_UNAVAILABLE' });
    expect(recorder.ofType('store-fail')).toMatchObject([{ failedOpen: false, errorType: 'StoreError' }]);
    expect(runs).toBe(0);
  });

  it('a loop stops as STORE_UNAVAILABLE, with the write not run', async () => {
    const { tool, ledger } = chargeTool();
    const messages: Message[] = [{ role: 'user', content: 'charge A-1' }];
    const outcome = await runToolLoop({
      model: new ScriptedModel({
        script: [assistantWithCalls([call]), { role: 'assistant', content: 'done' }],
      }),
      runtime: createToolRuntime({
        tools: [tool],
        store: storeWith({ set: () => Promise.reject(outage()) }),
      }),
      messages,
      sessionId: 's',
    });
    expect(outcome).toMatchObject({ type: 'stopped', reason: 'STORE_UNAVAILABLE' });
    expect(ledger.charges).toHaveLength(0);
  });
});

describe('a store that fails after the write ran: the result is never lost', () => {
  it('a completion that cannot be written: the model gets the real result, and a not-recorded event says so', async () => {
    let writes = 0;
    const memory = new MemoryStore();
    const store = storeWith(
      {
        set: (key, value, options) =>
          ++writes === 2 ? Promise.reject(outage()) : memory.set(key, value, options),
      },
      memory,
    );
    const { outcome, ledger, recorder } = await chargeWith(store);
    expect(outcome).toMatchObject({ isError: false, value: { charged: 'A-1', receipt: 'R-1' } });
    expect(ledger.charges).toHaveLength(1);
    expect(recorder.ofType('idempotency-warn')).toMatchObject([
      { action: 'not-recorded', errorType: 'StoreError' },
    ]);
    // The claim stays: a duplicate within its lease waits, then is told the call is in progress (never runs).
    expect((await memory.get(chargeRecordKey('s', args)))?.value).toMatchObject({ state: 'started' });
  });

  it('at least once, a claim that cannot be released after a timeout: a not-released event; it holds until its lease passes', async () => {
    const { tool } = chargeTool({
      timeoutMs: 10,
      idempotency: { mode: 'at-least-once' },
      run: () => new Promise(() => {}),
    });
    const runtime = createToolRuntime({
      tools: [tool],
      store: storeWith({ delete: () => Promise.reject(outage()) }),
    });
    const recorder = recordEvents();
    const outcome = await runtime.executeToolCall(call, { sessionId: 's', onEvent: recorder.listener });
    expect(outcome).toMatchObject({ code: 'TOOL_UNAVAILABLE' });
    expect(recorder.ofType('idempotency-warn')).toMatchObject([
      { action: 'not-released', errorType: 'StoreError' },
    ]);
  });

  it('a record that cannot be looked at again while waiting for a running duplicate: unavailable, not run', async () => {
    // The duplicate looks at the record again after a delay: time passes on a fake clock.
    vi.useFakeTimers();
    // Resolves, once the first call runs, with what finishes it.
    let started: (finish: () => void) => void = () => {};
    const running = new Promise<() => void>((resolve) => (started = resolve));
    const memory = new MemoryStore();
    const { tool, ledger } = chargeTool({
      run: () => new Promise((resolve) => started(() => resolve('ok'))),
    });
    const serving = createToolRuntime({ tools: [tool], store: memory });
    const first = serving.executeToolCall(call, { sessionId: 's' });
    const finish = await running;
    // The first look (a refused claim) finds the call running; the next fails.
    let looks = 0;
    const failing = storeWith(
      {
        set: (key, value, options) =>
          ++looks === 1 ? memory.set(key, value, options) : Promise.reject(outage()),
      },
      memory,
    );
    const charging = chargeWith(failing);
    await vi.advanceTimersByTimeAsync(DEFAULT_IDEMPOTENCY_POLL_MS);
    const { outcome } = await charging;
    expect(looks).toBe(2);
    expect(outcome).toMatchObject({ code: 'TOOL_UNAVAILABLE' });
    finish();
    await first;
    expect(ledger.charges).toHaveLength(1);
  });
});
