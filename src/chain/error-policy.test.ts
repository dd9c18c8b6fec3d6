import { afterEach, describe, expect, it, vi } from 'vitest';
import { FatalToolError } from '../core/errors/fatal-tool-error.js';
import { PermissionDeniedError } from '../core/errors/permission-denied-error.js';
import { ToolExecutionError } from '../core/errors/tool-execution-error.js';
import { ToolInputError } from '../core/errors/tool-input-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool } from '../tools/define-tool.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };
const noJitter = { random: () => 0.5, baseDelayMs: 100, maxDelayMs: 1000 };

function failingTool(
  name: string,
  fail: (attempt: number) => unknown,
  extra: { retries?: number; effect?: 'read' | 'write' } = {},
) {
  return defineTool({
    name,
    description: 'd',
    effect: extra.effect ?? 'read',
    ...(extra.retries === undefined ? {} : { retries: extra.retries }),
    execute: (_args, context) => {
      const outcome = fail(context.attempt);
      if (outcome instanceof Error || typeof outcome !== 'string' || !outcome.startsWith('ok')) throw outcome;
      return outcome;
    },
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the error policy', () => {
  it('shows a model-fixable failure as a short message the model can act on', async () => {
    const tool = failingTool(
      'book',
      () => new ToolInputError({ message: 'The date must be in the future.' }),
    );
    const result = await createToolRuntime({ tools: [tool] }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'book' }]),
    });
    expect(result.messages[2]).toMatchObject({
      isError: true,
      errorCode: 'TOOL_ERROR',
      content: 'TOOL_ERROR: The date must be in the future.',
    });
    expect(result.results[0]).toMatchObject({ errorClass: 'invalid-input', attempts: 1 });
  });

  it('retries transient failures with exponential backoff and jitter, then succeeds', async () => {
    vi.useFakeTimers();
    const recorder = recordEvents();
    const tool = failingTool('quote', (attempt) =>
      attempt < 3 ? new TransientToolError({ message: '503' }) : 'ok:quote',
    );
    const pending = createToolRuntime({ tools: [tool], retry: noJitter }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'quote' }]),
      onEvent: recorder.listener,
    });
    await vi.runAllTimersAsync();
    const result = await pending;
    expect(result.results[0]).toMatchObject({ type: 'success', attempts: 3, content: '"ok:quote"' });
    expect(recorder.ofType('tool-call-retry').map((e) => [e.attempt, e.delayMs])).toEqual([
      [2, 50],
      [3, 100],
    ]);
  });

  it('honours a Retry-After delay and caps it', async () => {
    vi.useFakeTimers();
    const recorder = recordEvents();
    const tool = failingTool('q', (attempt) =>
      attempt === 1 ? new TransientToolError({ message: '429', retryAfterMs: 60_000 }) : 'ok',
    );
    const pending = createToolRuntime({ tools: [tool], retry: noJitter }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'q' }]),
      onEvent: recorder.listener,
    });
    await vi.runAllTimersAsync();
    await pending;
    expect(recorder.ofType('tool-call-retry')[0]?.delayMs).toBe(1000);
  });

  it('reports a transient failure as temporarily unavailable once the retries are spent', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const tool = failingTool('q', () => {
      runs++;
      return Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432'), { code: 'ECONNREFUSED' });
    });
    const pending = createToolRuntime({ tools: [tool], retry: noJitter }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'q' }]),
    });
    await vi.runAllTimersAsync();
    const result = await pending;
    expect(runs).toBe(3);
    expect(result.messages[2]?.content).toBe(
      "TOOL_UNAVAILABLE: Tool 'q' is temporarily unavailable (tried 3 times). Try again later or continue without it.",
    );
  });

  it('does not retry write tools by default, and a tool can opt in', async () => {
    let runs = 0;
    const transient = () => {
      runs++;
      return new TransientToolError({ message: 'busy' });
    };
    const write = failingTool('w', transient, { effect: 'write' });
    const optIn = failingTool('w2', transient, { effect: 'write', retries: 1 });
    const fast = { baseDelayMs: 0 };
    await createToolRuntime({ tools: [write], retry: fast }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'w' }]),
    });
    expect(runs).toBe(1);
    await createToolRuntime({ tools: [optIn], retry: fast }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'w2' }]),
    });
    expect(runs).toBe(3);
  });

  it('tells the model only that a denied action is not permitted, and emits an audit event', async () => {
    const recorder = recordEvents();
    const tool = failingTool(
      'del',
      () => new PermissionDeniedError({ message: 'user 17 lacks role admin on tenant acme' }),
    );
    const result = await createToolRuntime({ tools: [tool] }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'del', arguments: { id: 5 } }]),
      onEvent: recorder.listener,
      includeContent: true,
    });
    expect(result.messages[2]?.content).toBe(
      'PERMISSION_DENIED: This action is not permitted; do not repeat this call.',
    );
    const [audit] = recorder.ofType('tool-call-end').filter((e) => e.outcome === 'denied');
    expect(audit?.toolName).toBe('del');
    expect(audit?.errorType).toBe('PermissionDeniedError');
    expect((audit?.error as Error | undefined)?.message).toContain('tenant acme');
  });

  it('throws ToolExecutionError on a fatal failure, keeping the cause and every other call’s result', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    const broken = failingTool('broken', () => bug);
    const fine = defineTool({ name: 'fine', description: 'd', effect: 'read', execute: () => 'fine' });
    const response = assistantWithCalls([{ name: 'fine' }, { name: 'broken' }, { name: 'fine' }]);
    const error = await createToolRuntime({ tools: [broken, fine] })
      .executeToolCalls({ messages: [user], response })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolExecutionError);
    const fatal = error as ToolExecutionError;
    expect(fatal.cause).toBe(bug);
    expect(fatal).toMatchObject({ toolName: 'broken', toolCallId: 'call_2', code: 'TOOL_FATAL' });
    expect(fatal.partialResult.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'tool',
    ]);
    expect(fatal.partialResult.results.map((r) => r.type)).toEqual(['success', 'error', 'success']);
    expect(fatal.partialResult.messages[3]?.content).toBe(
      "INTERNAL_ERROR: Tool 'broken' failed with an internal error; do not repeat this call.",
    );
  });

  it('treats a tool-marked FatalToolError and a non-serializable result as fatal', async () => {
    const marked = failingTool('marked', () => new FatalToolError({ message: 'invariant broken' }));
    const circular = defineTool({
      name: 'circular',
      description: 'd',
      effect: 'read',
      execute: () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
    });
    for (const name of ['marked', 'circular']) {
      const error = await createToolRuntime({ tools: [marked, circular] })
        .executeToolCalls({ messages: [user], response: assistantWithCalls([{ name }]) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolExecutionError);
    }
    const error = await createToolRuntime({ tools: [circular] })
      .executeToolCalls({ messages: [user], response: assistantWithCalls([{ name: 'circular' }]) })
      .catch((e: unknown) => e as ToolExecutionError);
    expect((error as ToolExecutionError).cause).toMatchObject({
      code: 'RESULT_NOT_SERIALIZABLE',
      reason: 'circular',
      path: '/self',
    });
  });

  it('lets classification be set per tool and globally', async () => {
    const quota = () => new Error('quota exceeded');
    const perTool = defineTool({
      name: 'p',
      description: 'd',
      effect: 'read',
      retries: 0,
      classifyError: () => 'transient',
      execute: () => {
        throw quota();
      },
    });
    const plain = failingTool('g', quota);
    const result = await createToolRuntime({
      tools: [perTool, plain],
      classifyError: (error) => ((error as Error).message === 'quota exceeded' ? 'denied' : undefined),
    }).executeToolCalls({ messages: [user], response: assistantWithCalls([{ name: 'p' }, { name: 'g' }]) });
    expect(result.results.map((r) => (r.type === 'error' ? r.errorClass : r.type))).toEqual([
      'transient',
      'denied',
    ]);
  });
});
