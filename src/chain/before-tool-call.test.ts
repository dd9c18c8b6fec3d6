import { describe, expect, it } from 'vitest';
import { CallbackError } from '../core/errors/callback-error.js';
import type { Message } from '../core/message.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { historyProblems } from '../testing/history-problems.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool } from '../tools/define-tool.js';
import { argumentsDigest } from './arguments-digest.js';
import type { BeforeToolCall, ToolCallDecision } from './before-tool-call.js';
import { runToolCalls } from './calls.js';
import { emptyTurnCounts } from './limits.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };

function tools(hook?: BeforeToolCall) {
  const ran: string[] = [];
  const make = (name: string, effect: 'read' | 'write') =>
    defineTool({
      name,
      description: 'd',
      effect,
      input: { type: 'object', properties: { n: { type: 'number' } } },
      ...(hook === undefined ? {} : { beforeToolCall: hook }),
      execute: ({ n }: { n?: number }) => {
        ran.push(name);
        return n ?? name;
      },
    });
  return { list: [make('read', 'read'), make('write', 'write')], ran };
}

const response = assistantWithCalls([
  { name: 'read', arguments: { n: 1 } },
  { name: 'write', arguments: { n: 2 } },
]);

describe('beforeToolCall', () => {
  it('is asked with the validated call and the execution context; undefined runs the call', async () => {
    const seen: unknown[] = [];
    const { list, ran } = tools();
    const signal = new AbortController().signal;
    await createToolRuntime({
      tools: list,
      store: new MemoryStore(),
      beforeToolCall: (call, context) => {
        seen.push({ ...call, tool: call.tool.name }, context);
        return undefined;
      },
    }).executeToolCalls({
      messages: [user],
      response,
      data: { tenant: 't1' },
      turnId: 'turn-1',
      sessionId: 's-1',
      signal,
    });
    expect(ran).toEqual(['read', 'write']);
    expect(seen[0]).toEqual({
      toolCallId: 'call_1',
      toolName: 'read',
      arguments: { n: 1 },
      rawArguments: '{"n":1}',
      tool: 'read',
    });
    expect(seen[1]).toEqual({ turnId: 'turn-1', sessionId: 's-1', data: { tenant: 't1' }, signal });
  });

  it('deny: the tool never runs, the model learns only that it is not permitted, the audit event has the reason', async () => {
    const { list, ran } = tools();
    const recorder = recordEvents();
    const result = await createToolRuntime({
      tools: list,
      beforeToolCall: ({ tool }) =>
        tool.effect === 'write' ? { type: 'deny', reason: 'writes need role admin (user 17)' } : undefined,
    }).executeToolCalls({ messages: [user], response, onEvent: recorder.listener });
    expect(ran).toEqual(['read']);
    expect(result.results[1]).toMatchObject({
      type: 'error',
      errorClass: 'denied',
      code: 'PERMISSION_DENIED',
      content: 'PERMISSION_DENIED: This action is not permitted; do not repeat this call.',
    });
    expect(JSON.stringify(result.messages)).not.toContain('admin');
    expect(recorder.ofType('tool-call-denied')).toEqual([
      expect.objectContaining({
        toolName: 'write',
        toolCallId: 'call_2',
        reason: 'writes need role admin (user 17)',
      }),
    ]);
  });

  it('interrupt: the call waits; the calls of the response that need no decision run, and the result lists what waits', async () => {
    const { list, ran } = tools();
    const recorder = recordEvents();
    const messages: readonly Message[] = [user];
    const result = await createToolRuntime({
      tools: list,
      beforeToolCall: ({ tool }) =>
        tool.effect === 'write'
          ? { type: 'interrupt', reason: 'needs approval', payload: { ticket: 9 } }
          : undefined,
    }).executeToolCalls({ messages, response, onEvent: recorder.listener });
    expect(ran).toEqual(['read']);
    expect(
      recorder.events.map((event) => `${event.type}:${'toolCallId' in event ? event.toolCallId : ''}`),
    ).toEqual(['tool-call-start:call_1', 'tool-call-end:call_1']);
    expect(result).toEqual({
      messages: [
        user,
        response,
        expect.objectContaining({ role: 'tool', toolCallId: 'call_1', content: '1' }),
      ],
      results: [expect.objectContaining({ toolCallId: 'call_1', type: 'success' })],
      returnDirect: false,
      interrupted: [
        {
          toolCallId: 'call_2',
          toolName: 'write',
          arguments: '{"n":2}',
          argumentsSummary: '{"n":2}',
          argumentsDigest: argumentsDigest('write', '{"n":2}'),
          reason: 'needs approval',
          payload: { ticket: 9 },
        },
      ],
    });
    expect(messages).toEqual([user]);
  });

  it('resumes a partly run response from the returned messages: only the waiting call runs, and every answer follows the assistant message in the model’s order', async () => {
    const { list, ran } = tools();
    const runtime = createToolRuntime({
      tools: list,
      beforeToolCall: ({ tool }) => (tool.effect === 'write' ? { type: 'interrupt' } : undefined),
    });
    const first = await runtime.executeToolCalls({ messages: [user], response });
    expect(ran).toEqual(['read']);
    const resumed = await runtime.executeToolCalls({
      messages: first.messages,
      response,
      decisions: { call_2: { approve: true, argumentsDigest: argumentsDigest('write', '{"n":2}') } },
    });
    expect(ran).toEqual(['read', 'write']);
    expect(resumed.interrupted).toBeUndefined();
    expect(resumed.results.map((r) => r.toolCallId)).toEqual(['call_2']);
    expect(resumed.messages.map((m) => (m.role === 'tool' ? m.toolCallId : m.role))).toEqual([
      'user',
      'assistant',
      'call_1',
      'call_2',
    ]);
    expect(historyProblems(resumed.messages)).toEqual([]);
    const changed = runtime.executeToolCalls({
      messages: first.messages,
      response,
      decisions: { call_2: { approve: true, argumentsDigest: argumentsDigest('write', '{"n":3}') } },
    });
    await expect(changed).rejects.toMatchObject({ name: 'ApprovalError', reason: 'arguments-changed' });
    expect(ran).toEqual(['read', 'write']);
  });

  it('resumes with decisions: a call id in the map is not asked again; run runs it, deny denies it', async () => {
    const { list, ran } = tools();
    const asked: string[] = [];
    const runtime = createToolRuntime({
      tools: list,
      beforeToolCall: ({ toolCallId }) => {
        asked.push(toolCallId);
        return { type: 'interrupt' };
      },
    });
    const first = await runtime.executeToolCalls({ messages: [user], response });
    expect(first.interrupted?.map((call) => call.toolCallId)).toEqual(['call_1', 'call_2']);
    asked.length = 0;
    const resumed = await runtime.executeToolCalls({
      messages: first.messages,
      response,
      decisions: { call_1: 'run', call_2: 'deny' },
    });
    expect(asked).toEqual([]);
    expect(ran).toEqual(['read']);
    expect(resumed.results.map((r) => (r.type === 'error' ? r.code : r.content))).toEqual([
      '1',
      'PERMISSION_DENIED',
    ]);
  });

  it('gives back what the waiting calls added to the turn’s counts; the answered ones keep theirs', async () => {
    const { list } = tools();
    const runtime = createToolRuntime({ tools: list, beforeToolCall: () => ({ type: 'interrupt' }) });
    const counts = emptyTurnCounts();
    counts.total = 3;
    counts.perTool.set('read', 3);
    const outcome = await runToolCalls(
      {
        assistant: assistantWithCalls([
          { name: 'read', arguments: { n: 1 } },
          { name: 'write', arguments: '{' },
        ]),
        counts,
      },
      runtime,
    );
    expect(outcome.interrupted?.map((call) => call.toolName)).toEqual(['read']);
    // The write's arguments are not JSON: it was answered (no decision is asked of a call that cannot run).
    expect(outcome.results.map((r) => (r.type === 'error' ? r.code : r.type))).toEqual(['INVALID_JSON']);
    expect(counts).toEqual({
      total: 4,
      perTool: new Map([
        ['read', 3],
        ['write', 1],
      ]),
      invalidPerTool: new Map([['write', 1]]),
    });
  });

  it('asks the tool’s hook first; deny beats interrupt beats run', async () => {
    const cases: Array<[ToolCallDecision | undefined, ToolCallDecision | undefined, string]> = [
      [{ type: 'interrupt' }, { type: 'deny' }, 'deny'],
      [{ type: 'deny' }, { type: 'interrupt' }, 'deny'],
      [{ type: 'run' }, { type: 'interrupt' }, 'interrupt'],
      [{ type: 'interrupt' }, undefined, 'interrupt'],
      [undefined, { type: 'run' }, 'run'],
    ];
    for (const [toolSays, policySays, expected] of cases) {
      const order: string[] = [];
      const { list } = tools(() => {
        order.push('tool');
        return toolSays;
      });
      const result = await createToolRuntime({
        tools: list,
        beforeToolCall: () => {
          order.push('policy');
          return policySays;
        },
      }).executeToolCalls({
        messages: [user],
        response: assistantWithCalls([{ name: 'read', arguments: { n: 1 } }]),
      });
      const got =
        result.interrupted !== undefined ? 'interrupt' : result.results[0]?.type === 'error' ? 'deny' : 'run';
      expect(got).toBe(expected);
      // A tool that denies settles it: the policy is not asked.
      expect(order).toEqual(toolSays?.type === 'deny' ? ['tool'] : ['tool', 'policy']);
    }
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('policy store down');
      },
    ],
    ['rejects', async () => Promise.reject(new Error('policy store down'))],
    ['answers nonsense', () => ({ type: 'maybe' }) as unknown as ToolCallDecision],
    ['gives a reason that is not text', () => ({ type: 'deny', reason: 42 }) as unknown as ToolCallDecision],
  ])('a hook that %s is a caller defect: CallbackError, and no call runs', async (_name, hook) => {
    const { list, ran } = tools();
    const error = await createToolRuntime({ tools: list, beforeToolCall: hook })
      .executeToolCalls({ messages: [user], response })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallbackError);
    expect(error).toMatchObject({ code: 'CALLBACK_FAILED', callback: 'beforeToolCall' });
    expect((error as CallbackError).partialResult?.messages).toEqual([user]);
    expect(ran).toEqual([]);
  });

  it('is refused at definition time when it is not a function', () => {
    expect(() =>
      defineTool({
        name: 't',
        description: 'd',
        effect: 'read',
        execute: () => 1,
        beforeToolCall: 'yes' as unknown as BeforeToolCall,
      }),
    ).toThrow('beforeToolCall must be a function');
    expect(() => createToolRuntime({ tools: [], beforeToolCall: 1 as unknown as BeforeToolCall })).toThrow(
      'Invalid option beforeToolCall',
    );
  });
});
