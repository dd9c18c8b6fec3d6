import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../messages/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { defineTool } from '../tools/define-tool.js';
import { executeToolCalls } from './execute-tool-calls.js';

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
    const pending = executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'hang' }]),
      tools: [tool],
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
    const pending = executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'never' }]),
      tools: [tool],
      retry: { baseDelayMs: 10 },
    });
    await vi.runAllTimersAsync();
    const result = await pending;
    expect(runs).toBe(3);
    expect(result.messages[2]?.content).toContain('temporarily unavailable (tried 3 times)');
  });

  it('uses the policy timeout when the tool sets none', async () => {
    vi.useFakeTimers();
    const tool = defineTool({
      name: 'never',
      description: 'd',
      effect: 'write',
      execute: () => new Promise(() => {}),
    });
    const pending = executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'never' }]),
      tools: [tool],
      timeoutMs: 50,
    });
    await vi.advanceTimersByTimeAsync(50);
    expect((await pending).results[0]).toMatchObject({ errorClass: 'transient', attempts: 1 });
  });

  it('passes the caller’s abort to running tools and skips retries', async () => {
    const controller = new AbortController();
    let signalSeen: AbortSignal | undefined;
    const tool = defineTool({
      name: 'wait',
      description: 'd',
      effect: 'read',
      execute: (_args, { signal }) => {
        signalSeen = signal;
        controller.abort(new Error('user went away'));
        return new Promise(() => {});
      },
    });
    const result = await executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'wait' }]),
      tools: [tool],
      signal: controller.signal,
    });
    expect(signalSeen?.aborted).toBe(true);
    expect(result.results[0]).toMatchObject({ type: 'error', attempts: 1 });
  });
});
