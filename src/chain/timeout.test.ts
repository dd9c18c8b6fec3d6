import { afterEach, describe, expect, it, vi } from 'vitest';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool } from '../tools/define-tool.js';
import { runToolCalls } from './calls.js';
import { emptyTurnCounts } from './limits.js';
import { createToolRuntime, resolvedRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };

afterEach(() => {
  vi.useRealTimers();
});

describe('timeouts and abort signals', () => {
  it('aborts the tool’s signal at its timeout and reports the failure as transient', async () => {
    vi.useFakeTimers();
    const seen: { aborted?: boolean; reason?: unknown } = {};
    const tool = defineTool({
      name: 'hang',
      description: 'd',
      effect: 'read',
      timeoutMs: 1_000,
      retries: 0,
      execute: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            seen.aborted = signal.aborted;
            seen.reason = signal.reason;
            reject(signal.reason);
          });
        }),
    });
    const pending = createToolRuntime({ tools: [tool] }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'hang' }]),
    });
    await vi.advanceTimersByTimeAsync(1_000);
    const result = await pending;
    expect(seen.aborted).toBe(true);
    expect(seen.reason).toMatchObject({ code: 'TOOL_TIMEOUT', timeoutMs: 1_000 });
    expect(result.results[0]).toMatchObject({
      type: 'error',
      errorClass: 'transient',
      code: 'TOOL_UNAVAILABLE',
    });
  });

  it('ends a tool that never settles and ignores its signal, retrying it as transient', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const tool = defineTool({
      name: 'never',
      description: 'd',
      effect: 'read',
      timeoutMs: 500,
      execute: () => {
        runs++;
        return new Promise(() => {});
      },
    });
    const pending = createToolRuntime({ tools: [tool], retry: { baseDelayMs: 10 } }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'never' }]),
    });
    await vi.runAllTimersAsync();
    const result = await pending;
    expect(runs).toBe(3);
    expect(result.messages[2]?.content).toContain('temporarily unavailable (tried 3 times)');
  });

  it('arms a timer only while a result is pending, and clears it on every path', async () => {
    vi.useFakeTimers();
    let release: (value: string) => void = () => {};
    const pending = defineTool({
      name: 'pending',
      description: 'd',
      effect: 'read',
      execute: () => new Promise<string>((resolve) => (release = resolve)),
    });
    const silentThenable = defineTool({
      name: 'thenable',
      description: 'd',
      effect: 'read',
      timeoutMs: 100,
      retries: 0,
      // biome-ignore lint/suspicious/noThenProperty: a thenable that never calls back.
      execute: () => ({ then() {} }),
    });
    const sync = defineTool({ name: 'sync', description: 'd', effect: 'read', execute: () => 1 });
    const running = createToolRuntime({ tools: [pending] }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'pending' }]),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    release('done');
    expect((await running).results[0]).toMatchObject({ type: 'success', content: '"done"' });
    expect(vi.getTimerCount()).toBe(0);
    await createToolRuntime({ tools: [sync] }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'sync' }]),
    });
    expect(vi.getTimerCount()).toBe(0);
    const stuck = createToolRuntime({ tools: [silentThenable] }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'thenable' }]),
    });
    await vi.advanceTimersByTimeAsync(100);
    expect((await stuck).results[0]).toMatchObject({ errorClass: 'transient', code: 'TOOL_UNAVAILABLE' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses the policy timeout when the tool sets none', async () => {
    vi.useFakeTimers();
    const tool = defineTool({
      name: 'never',
      description: 'd',
      effect: 'write',
      execute: () => new Promise(() => {}),
    });
    const pending = createToolRuntime({ tools: [tool], timeoutMs: 50 }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'never' }]),
    });
    await vi.advanceTimersByTimeAsync(50);
    expect((await pending).results[0]).toMatchObject({ errorClass: 'transient', attempts: 1 });
  });

  it('aborts running tools on the caller’s abort, reports ABORTED (never TOOL_ERROR) and rejects with the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('user went away');
    let signalSeen: AbortSignal | undefined;
    let runs = 0;
    const recorder = recordEvents();
    const tool = defineTool({
      name: 'wait',
      description: 'd',
      effect: 'read',
      classifyError: () => 'transient',
      execute: (_args, { signal }) => {
        runs++;
        signalSeen = signal;
        controller.abort(reason);
        return new Promise(() => {});
      },
    });
    const failure = await createToolRuntime({ tools: [tool], concurrency: 1 })
      .executeToolCalls({
        messages: [user],
        response: assistantWithCalls([{ name: 'wait' }, { name: 'wait' }]),
        signal: controller.signal,
        onEvent: recorder.listener,
      })
      .catch((error: unknown) => error);
    expect(failure).toBe(reason);
    expect(signalSeen?.aborted).toBe(true);
    // No retry and no new call started after the abort.
    expect(runs).toBe(1);
    expect(recorder.ofType('tool-call-end').map((e) => [e.outcome, e.code, e.attempts])).toEqual([
      ['aborted', 'ABORTED', 1],
      ['aborted', 'ABORTED', 0],
    ]);
  });

  it('gives every call of an already aborted request the ABORTED failure, and never runs a tool', async () => {
    let runs = 0;
    const tool = defineTool({ name: 't', description: 'd', effect: 'read', execute: () => ++runs });
    const runtime = createToolRuntime({ tools: [tool] });
    const outcome = await runToolCalls(
      {
        assistant: assistantWithCalls([{ name: 't' }, { name: 't' }]),
        counts: emptyTurnCounts(),
        signal: AbortSignal.abort(new Error('gone')),
      },
      resolvedRuntime(runtime),
    );
    expect(runs).toBe(0);
    expect(outcome.aborted).toBe(true);
    expect(outcome.toolMessages.map((m) => m.content)).toEqual([
      'ABORTED: The call was cancelled before it finished.',
      'ABORTED: The call was cancelled before it finished.',
    ]);
    expect(outcome.results.map((r) => r.type === 'error' && r.errorClass)).toEqual(['aborted', 'aborted']);
  });

  it('ends a retry wait on the caller’s abort: no further attempt, no timer left', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    let runs = 0;
    const tool = defineTool({
      name: 'flaky',
      description: 'd',
      effect: 'read',
      retries: 5,
      execute: () => {
        runs++;
        throw new TransientToolError({ message: 'busy' });
      },
    });
    const pending = createToolRuntime({ tools: [tool], retry: { baseDelayMs: 1_000, random: () => 0.99 } })
      .executeToolCalls({
        messages: [user],
        response: assistantWithCalls([{ name: 'flaky' }]),
        signal: controller.signal,
      })
      .catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    controller.abort('stop');
    expect(await pending).toBe('stop');
    await vi.runAllTimersAsync();
    expect(runs).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
