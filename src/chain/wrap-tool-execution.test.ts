import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallbackError } from '../core/errors/callback-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import type { Message } from '../core/message.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { defineTool } from '../tools/define-tool.js';
import { createToolRuntime } from './runtime.js';
import type { WrapToolExecution } from './wrap-tool-execution.js';

const user: Message = { role: 'user', content: 'go' };

afterEach(() => {
  vi.useRealTimers();
});

describe('wrapToolExecution', () => {
  it('runs the tool inside the wrapper, once per call, around all its attempts', async () => {
    vi.useFakeTimers();
    const span = new AsyncLocalStorage<string>();
    const seenInside: Array<string | undefined> = [];
    const tool = defineTool({
      name: 'quote',
      description: 'd',
      effect: 'read',
      execute: (_args: { symbol: string }, { attempt }) => {
        seenInside.push(span.getStore());
        if (attempt === 1) throw new TransientToolError({ message: 'busy' });
        return 42;
      },
    });
    const wrapped: unknown[] = [];
    const wrap: WrapToolExecution = (call, next) => {
      wrapped.push({ ...call, tool: call.tool.name });
      return span.run(`span:${call.toolCallId}`, next);
    };
    const pending = createToolRuntime({
      tools: [tool],
      store: new MemoryStore(),
      retry: { baseDelayMs: 10 },
      wrapToolExecution: wrap,
    }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'quote', arguments: { symbol: 'X' } }]),
      data: 'caller data',
      turnId: 't',
    });
    await vi.runAllTimersAsync();
    const result = await pending;
    expect(result.results[0]).toMatchObject({ type: 'success', attempts: 2, content: '42' });
    expect(seenInside).toEqual(['span:call_1', 'span:call_1']);
    expect(wrapped).toEqual([
      {
        toolCallId: 'call_1',
        toolName: 'quote',
        tool: 'quote',
        arguments: { symbol: 'X' },
        turnId: 't',
        sessionId: undefined,
        data: 'caller data',
      },
    ]);
  });

  it('is not called for a call refused before its tool would run', async () => {
    let calls = 0;
    await createToolRuntime({
      tools: [],
      wrapToolExecution: (_call, next) => {
        calls++;
        return next();
      },
    }).executeToolCalls({ messages: [user], response: assistantWithCalls([{ name: 'missing' }]) });
    expect(calls).toBe(0);
  });

  it('may answer for the call itself (a cache)', async () => {
    let ran = 0;
    const tool = defineTool({ name: 't', description: 'd', effect: 'read', execute: () => ++ran });
    const result = await createToolRuntime({
      tools: [tool],
      wrapToolExecution: async (call): Promise<ToolCallResult> => ({
        type: 'success',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        content: '"cached"',
        value: 'cached',
        truncated: false,
        attempts: 0,
        durationMs: 0,
      }),
    }).executeToolCalls({ messages: [user], response: assistantWithCalls([{ name: 't' }]) });
    expect(ran).toBe(0);
    expect(result.messages[2]?.content).toBe('"cached"');
  });

  it.each([
    [
      'throws',
      (() => {
        throw new Error('tracer down');
      }) as WrapToolExecution,
    ],
    [
      'resolves with something that is not a result',
      (async () => ({ ok: true })) as unknown as WrapToolExecution,
    ],
    [
      'resolves with the result of another call',
      (async (_call, next) => ({ ...(await next()), toolCallId: 'other' })) as WrapToolExecution,
    ],
  ])('a wrapper that %s is a caller defect: CallbackError with every call answered', async (_name, wrap) => {
    const tool = defineTool({ name: 't', description: 'd', effect: 'read', execute: () => 'fine' });
    const error = await createToolRuntime({ tools: [tool], wrapToolExecution: wrap })
      .executeToolCalls({
        messages: [user],
        response: assistantWithCalls([{ name: 't' }, { name: 'missing' }]),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallbackError);
    const failure = error as CallbackError;
    expect(failure.callback).toBe('wrapToolExecution');
    expect(failure.partialResult?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(failure.partialResult?.results.map((r) => (r.type === 'error' ? r.code : 'ok'))).toEqual([
      'INTERNAL_ERROR',
      'UNKNOWN_TOOL',
    ]);
  });
});
