import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_IDEMPOTENCY_MAX_POLL_MS } from '../../core/defaults.js';
import type { Message } from '../../core/message.js';
import { MemoryStore } from '../../store/memory-store.js';
import { assistantWithCalls } from '../../testing/assistant-with-calls.js';
import { createToolRuntime } from '../runtime.js';
import { chargeTool } from './__fixtures__/charge-tool.js';

const history: Message[] = [{ role: 'user', content: 'charge it' }];
const call = { name: 'charge', arguments: { order: 'A-1' } };

/** A charge tool whose executions wait until `release()`; `running()` resolves once one has started. */
function heldCharge(options: { timeoutMs?: number } = {}) {
  let release: (() => void) | undefined;
  let started: (() => void) | undefined;
  const running = new Promise<void>((resolve) => (started = resolve));
  const held = chargeTool({
    ...options,
    run: (_args, _context, count) =>
      new Promise((resolve) => {
        started?.();
        release = () => resolve({ receipt: `R-${count}` });
      }),
  });
  return { ...held, running: () => running, release: () => release?.() };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a duplicate of a write still running', () => {
  // A duplicate looks at the record again after a delay, up to the tool's timeout: time passes on a fake
  // clock (timers and Date.now), by what each test says.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for it and gets its result: the tool runs once', async () => {
    const { tool, ledger, running, release } = heldCharge();
    const runtime = createToolRuntime({ tools: [tool] });
    const first = runtime.executeToolCall({ ...call, id: 'c1' }, { sessionId: 's' });
    await running();
    const second = runtime.executeToolCall({ ...call, id: 'c2' }, { sessionId: 's' });
    await vi.advanceTimersByTimeAsync(30);
    release();
    expect(await first).toMatchObject({ isError: false, value: { receipt: 'R-1' } });
    // The duplicate sees the result the next time it looks.
    await vi.advanceTimersByTimeAsync(DEFAULT_IDEMPOTENCY_MAX_POLL_MS);
    const replayed = await second;
    expect(replayed).toMatchObject({ isError: false, value: { receipt: 'R-1' } });
    expect(replayed.type === 'answered' && replayed.result.replayOf).toBe('c1');
    expect(ledger.charges).toHaveLength(1);
  });

  it('still running after the duplicate has waited its timeout: ALREADY_IN_PROGRESS, not run', async () => {
    const store = new MemoryStore();
    const held = heldCharge();
    const other = chargeTool({ timeoutMs: 30 });
    const serving = createToolRuntime({ tools: [held.tool], store });
    const impatient = createToolRuntime({ tools: [other.tool], store });
    const first = serving.executeToolCall({ ...call, id: 'c1' }, { sessionId: 's' });
    await held.running();
    const refusing = impatient.executeToolCall({ ...call, id: 'c2' }, { sessionId: 's' });
    await vi.advanceTimersByTimeAsync(30);
    const refused = await refusing;
    expect(refused).toMatchObject({ isError: true, code: 'ALREADY_IN_PROGRESS', errorClass: 'transient' });
    expect(refused.type === 'answered' && refused.content).toBe(
      "ALREADY_IN_PROGRESS: An identical call to tool 'charge' is still running, so this one was not run. Do not call it again now; check later whether it was done.",
    );
    expect(
      refused.type === 'answered' && refused.result.type === 'error' && refused.result.error,
    ).toMatchObject({
      name: 'IdempotencyError',
      reason: 'in-progress',
      claimedBy: 'c1',
    });
    held.release();
    await first;
    expect(await impatient.executeToolCall({ ...call, id: 'c3' }, { sessionId: 's' })).toMatchObject({
      isError: false,
      value: { receipt: 'R-1' },
    });
    expect(held.ledger.charges.length + other.ledger.charges.length).toBe(1);
  });

  it('in the same response under writeConcurrency > 1 waits for the first: one run, the rest replays', async () => {
    const { tool, ledger } = chargeTool({ run: () => pause(20).then(() => 'charged') });
    const runtime = createToolRuntime({ tools: [tool], writeConcurrency: 4 });
    const response = assistantWithCalls([call, call, call, { name: 'charge', arguments: { order: 'B-2' } }]);
    const doing = runtime.executeToolCalls({ messages: history, response, sessionId: 's' });
    await vi.runAllTimersAsync();
    const done = await doing;
    expect(ledger.charges.map((charge) => charge.order)).toEqual(['A-1', 'B-2']);
    expect(done.results.map((result) => result.replayOf)).toEqual([undefined, 'call_1', 'call_1', undefined]);
  });

  it('stops waiting when the caller aborts: ABORTED, and the tool does not run for it', async () => {
    const { tool, ledger, running, release } = heldCharge();
    const runtime = createToolRuntime({ tools: [tool] });
    const first = runtime.executeToolCall({ ...call, id: 'c1' }, { sessionId: 's' });
    await running();
    const controller = new AbortController();
    const second = runtime.executeToolCall(
      { ...call, id: 'c2' },
      { sessionId: 's', signal: controller.signal },
    );
    await vi.advanceTimersByTimeAsync(20);
    const reason = new Error('user left');
    controller.abort(reason);
    await expect(second).rejects.toBe(reason);
    release();
    await first;
    expect(ledger.charges).toHaveLength(1);
  });
});
