import { afterEach, describe, expect, it, vi } from 'vitest';
import { FatalToolError } from '../core/errors/fatal-tool-error.js';
import { ToolExecutionError } from '../core/errors/tool-execution-error.js';
import { ToolInputError } from '../core/errors/tool-input-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import type { Message } from '../core/message.js';
import { assistantWithCalls, type CallSpec } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { type AnyTool, defineTool } from '../tools/define-tool.js';
import { runToolCalls } from './calls.js';
import { emptyTurnCounts } from './limits.js';
import type { ToolExecutionPolicy } from './policy.js';
import type { ExecutionContext } from './runtime.js';
import { createToolRuntime, resolvedRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };

/** A read tool that counts its executions and gives the price it was asked for. */
function pricing(answer?: (args: { sku: string }) => unknown) {
  const ran: Array<{ sku: string }> = [];
  const tool = defineTool({
    name: 'getPrice',
    description: 'The price of one article.',
    input: { type: 'object', properties: { sku: { type: 'string' }, currency: { type: 'string' } } },
    effect: 'read',
    retries: 0,
    execute: (args: { sku: string }) => {
      ran.push(args);
      return answer === undefined ? { sku: args.sku, price: 12.5 } : answer(args);
    },
  });
  return { tool, ran };
}

/** The calls of one response through `executeToolCalls`, after a user message. */
function execute(
  calls: readonly CallSpec[],
  tools: readonly AnyTool[],
  options: ToolExecutionPolicy & ExecutionContext = {},
) {
  const { signal, data, turnId, sessionId, now, onEvent, includeContent, ...policy } = options;
  const context = { signal, data, turnId, sessionId, now, onEvent, includeContent };
  return createToolRuntime({ tools, ...policy }).executeToolCalls({
    messages: [user],
    response: assistantWithCalls(calls),
    ...(Object.fromEntries(
      Object.entries(context).filter(([, value]) => value !== undefined),
    ) as ExecutionContext),
  });
}

const same = (count: number, args: unknown = { sku: 'X-1' }): CallSpec[] =>
  Array.from({ length: count }, () => ({ name: 'getPrice', arguments: args }));

describe('identical read calls in one response', () => {
  it('run once; every call gets its own tool message and result, the copies marked', async () => {
    const { tool, ran } = pricing();
    const recorder = recordEvents();
    const result = await execute(same(3), [tool], {
      onEvent: recorder.listener,
    });
    expect(ran).toHaveLength(1);
    const toolMessages = result.messages.slice(2);
    expect(toolMessages.map((m) => m.role === 'tool' && m.toolCallId)).toEqual([
      'call_1',
      'call_2',
      'call_3',
    ]);
    expect(new Set(toolMessages.map((m) => m.content))).toEqual(new Set(['{"price":12.5,"sku":"X-1"}']));
    expect(toolMessages.every((m) => m.role === 'tool' && m.isError === false && m.name === 'getPrice')).toBe(
      true,
    );
    expect(result.results.map((r) => [r.toolCallId, r.sharedWith, r.attempts])).toEqual([
      ['call_1', undefined, 1],
      ['call_2', 'call_1', 0],
      ['call_3', 'call_1', 0],
    ]);
    expect(result.results[0]).not.toHaveProperty('sharedWith');
    expect(result.results[1]).toMatchObject({ type: 'success', value: { sku: 'X-1', price: 12.5 } });

    const ends = recorder.ofType('tool-call-end');
    expect(ends.map((e) => [e.toolCallId, e.sharedWith, e.attempts])).toEqual([
      ['call_1', undefined, 1],
      ['call_2', 'call_1', 0],
      ['call_3', 'call_1', 0],
    ]);
    expect(recorder.ofType('tool-call-start')).toHaveLength(3);
    // A copy's events follow the end of the call it shares.
    const order = recorder.events.map((e) => `${e.type}:${'toolCallId' in e ? e.toolCallId : ''}`);
    expect(order.indexOf('tool-call-end:call_1')).toBeLessThan(order.indexOf('tool-call-start:call_2'));
  });

  it('merge calls that differ only in key order, whitespace between tokens and number spelling', async () => {
    const { tool, ran } = pricing();
    const result = await execute(
      [
        { name: 'getPrice', arguments: '{"sku":"X-1","currency":"EUR"}' },
        { name: 'getPrice', arguments: ' {\n  "currency" : "EUR",\t"sku": "X-1"\n} ' },
        { name: 'getPrice', arguments: '{"currency":"EUR","sku":"X-1"}' },
      ],
      [tool],
    );
    expect(ran).toHaveLength(1);
    expect(result.results.map((r) => r.sharedWith)).toEqual([undefined, 'call_1', 'call_1']);

    const counted = defineTool({
      name: 'page',
      description: 'A page.',
      effect: 'read',
      execute: () => ran.push({ sku: 'page' }),
    });
    const pages = await execute(
      [
        { name: 'page', arguments: '{"n":1}' },
        { name: 'page', arguments: '{"n":1.0}' },
        { name: 'page', arguments: '{"n":1e0}' },
      ],
      [counted],
    );
    expect(ran).toHaveLength(2);
    expect(pages.results.map((r) => r.sharedWith)).toEqual([undefined, 'call_1', 'call_1']);
  });

  it('do not merge calls whose strings differ in whitespace inside them', async () => {
    const { tool, ran } = pricing();
    const result = await execute(
      [
        { name: 'getPrice', arguments: { sku: 'X-1' } },
        { name: 'getPrice', arguments: { sku: 'X-1 ' } },
        { name: 'getPrice', arguments: { sku: 'X\t-1' } },
      ],
      [tool],
    );
    expect(ran.map((args) => args.sku)).toEqual(['X-1', 'X-1 ', 'X\t-1']);
    expect(result.results.every((r) => r.sharedWith === undefined && r.attempts === 1)).toBe(true);
  });

  it('run a call once per distinct argument: one identical and one different call make 2 executions', async () => {
    const { tool, ran } = pricing();
    const result = await execute(
      [
        { name: 'getPrice', arguments: { sku: 'X-1' } },
        { name: 'getPrice', arguments: { sku: 'X-1' } },
        { name: 'getPrice', arguments: { sku: 'Y-2' } },
      ],
      [tool],
    );
    expect(ran.map((args) => args.sku)).toEqual(['X-1', 'Y-2']);
    expect(result.results.map((r) => r.sharedWith)).toEqual([undefined, 'call_1', undefined]);
    expect(result.messages.at(-1)?.content).toBe('{"price":12.5,"sku":"Y-2"}');
  });

  it('are told apart by tool: the same arguments to two read tools both run', async () => {
    const { tool, ran } = pricing();
    const other = defineTool({
      name: 'getStock',
      description: 'Stock.',
      effect: 'read',
      execute: () => ran.push({ sku: 'stock' }),
    });
    const result = await execute(
      [
        { name: 'getPrice', arguments: { sku: 'X-1' } },
        { name: 'getStock', arguments: { sku: 'X-1' } },
      ],
      [tool, other],
    );
    expect(ran).toHaveLength(2);
    expect(result.results.map((r) => r.sharedWith)).toEqual([undefined, undefined]);
  });
});

describe('identical write calls', () => {
  it("are never merged as reads are: the second is answered by the first one's record, or runs under idempotency: false", async () => {
    const writes: unknown[] = [];
    const define = (idempotency?: false) =>
      defineTool({
        name: 'pay',
        description: 'Pays an order.',
        effect: 'write',
        ...(idempotency === undefined ? {} : { idempotency }),
        execute: (args: unknown) => writes.push(args),
      });
    const calls = [
      { name: 'pay', arguments: { order: 'A-1' } },
      { name: 'pay', arguments: { order: 'A-1' } },
    ];
    const replayed = await execute(calls, [define()]);
    expect(writes).toHaveLength(1);
    expect(replayed.results.map((r) => [r.sharedWith, r.replayOf, r.attempts])).toEqual([
      [undefined, undefined, 1],
      [undefined, 'call_1', 0],
    ]);
    const each = await execute(calls, [define(false)]);
    expect(writes).toHaveLength(3);
    expect(each.results.map((r) => [r.sharedWith, r.replayOf, r.attempts])).toEqual([
      [undefined, undefined, 1],
      [undefined, undefined, 1],
    ]);
  });
});

describe('a shared execution that fails', () => {
  it('gives every merged call the same failure and code', async () => {
    const { tool, ran } = pricing(() => {
      throw new ToolInputError({ message: 'No article X-1 in this shop.' });
    });
    const recorder = recordEvents();
    const result = await execute(same(3), [tool], {
      onEvent: recorder.listener,
    });
    expect(ran).toHaveLength(1);
    const toolMessages = result.messages.slice(2);
    expect(toolMessages.map((m) => m.role === 'tool' && [m.isError, m.errorCode, m.content])).toEqual(
      Array.from({ length: 3 }, () => [true, 'TOOL_ERROR', 'TOOL_ERROR: No article X-1 in this shop.']),
    );
    expect(result.results.map((r) => r.type === 'error' && [r.code, r.errorClass, r.sharedWith])).toEqual([
      ['TOOL_ERROR', 'invalid-input', undefined],
      ['TOOL_ERROR', 'invalid-input', 'call_1'],
      ['TOOL_ERROR', 'invalid-input', 'call_1'],
    ]);
    expect(
      recorder
        .ofType('tool-call-end')
        .filter((e) => e.outcome !== 'success')
        .map((e) => [e.toolCallId, e.sharedWith]),
    ).toEqual([
      ['call_1', undefined],
      ['call_2', 'call_1'],
      ['call_3', 'call_1'],
    ]);
  });

  it('retries once for all: a transient failure is retried by the call that runs, the copies share the outcome', async () => {
    let attempts = 0;
    const flaky = defineTool({
      name: 'quote',
      description: 'A quote.',
      effect: 'read',
      retries: 2,
      execute: () => {
        attempts++;
        throw new TransientToolError({ message: 'upstream 503' });
      },
    });
    const result = await execute(
      Array.from({ length: 4 }, () => ({ name: 'quote' })),
      [flaky],
      { retry: { baseDelayMs: 0 } },
    );
    expect(attempts).toBe(3);
    expect(result.results.map((r) => r.type === 'error' && [r.code, r.attempts])).toEqual([
      ['TOOL_UNAVAILABLE', 3],
      ['TOOL_UNAVAILABLE', 0],
      ['TOOL_UNAVAILABLE', 0],
      ['TOOL_UNAVAILABLE', 0],
    ]);
    expect(new Set(result.results.map((r) => r.content)).size).toBe(1);
  });

  it('fatally: the execution throws for the call that ran, and the copies mirror the failure', async () => {
    const { tool, ran } = pricing(() => {
      throw new FatalToolError({ message: 'corrupt price table' });
    });
    const error = await execute(same(3), [tool]).catch((e: unknown) => e);
    expect(ran).toHaveLength(1);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({ toolCallId: 'call_1', toolName: 'getPrice' });
    const { results } = (error as ToolExecutionError).partialResult;
    expect(results.map((r) => r.type === 'error' && [r.code, r.errorClass, r.sharedWith])).toEqual([
      ['INTERNAL_ERROR', 'fatal', undefined],
      ['INTERNAL_ERROR', 'fatal', 'call_1'],
      ['INTERNAL_ERROR', 'fatal', 'call_1'],
    ]);
    expect(results[2]?.type === 'error' && results[2].error).toBe(
      results[0]?.type === 'error' && results[0].error,
    );
  });
});

describe('what decides before the merge', () => {
  it('limits: merged calls count as calls, and a call over the limit is refused, not shared', async () => {
    const { tool, ran } = pricing();
    const result = await execute(same(3), [tool], {
      limits: { perTool: 2 },
      onLimitExceeded: 'feedback',
    });
    expect(ran).toHaveLength(1);
    expect(result.results.map((r) => [r.type === 'error' ? r.code : 'ok', r.sharedWith])).toEqual([
      ['ok', undefined],
      ['ok', 'call_1'],
      ['TOOL_CALL_LIMIT', undefined],
    ]);
  });

  it('counts a turn the same from a handed-back history and from a history counted anew', async () => {
    const { tool } = pricing();
    const runtime = createToolRuntime({ tools: [tool], limits: { perTool: 4 }, onLimitExceeded: 'feedback' });
    const first = await runtime.executeToolCalls({ messages: [user], response: assistantWithCalls(same(3)) });
    const second = assistantWithCalls(same(2, { sku: 'Y-2' }).map((c, i) => ({ ...c, id: `next_${i}` })));
    const handedBack = await runtime.executeToolCalls({ messages: first.messages, response: second });
    const copied = first.messages.map((message) => ({ ...message }));
    const countedAnew = await runtime.executeToolCalls({ messages: copied, response: second });
    for (const result of [handedBack, countedAnew]) {
      expect(result.results.map((r) => (r.type === 'error' ? r.code : 'ok'))).toEqual([
        'ok',
        'TOOL_CALL_LIMIT',
      ]);
    }
  });

  it('decide decides per call: a denied call is not shared, the identical calls left share one run', async () => {
    const { tool, ran } = pricing();
    const result = await execute(same(3), [tool], {
      decide: ({ toolCallId }) =>
        toolCallId === 'call_1' ? { type: 'deny', reason: 'no' } : { type: 'run' },
    });
    expect(ran).toHaveLength(1);
    expect(result.results.map((r) => [r.type === 'error' ? r.code : 'ok', r.sharedWith])).toEqual([
      ['PERMISSION_DENIED', undefined],
      ['ok', undefined],
      ['ok', 'call_2'],
    ]);
  });

  it('invalid arguments: each identical invalid call is refused and counted on its own', async () => {
    const { tool, ran } = pricing();
    const result = await execute(same(4, { sku: 7 }), [tool]);
    expect(ran).toHaveLength(0);
    expect(result.results.map((r) => (r.type === 'error' ? r.code : 'ok'))).toEqual([
      'INVALID_ARGUMENTS',
      'INVALID_ARGUMENTS',
      'INVALID_ARGUMENTS',
      'TOO_MANY_INVALID_ATTEMPTS',
    ]);
    expect(result.results.every((r) => r.sharedWith === undefined)).toBe(true);
  });

  it('wrapToolExecution wraps the one execution', async () => {
    const { tool, ran } = pricing();
    const wrapped: string[] = [];
    await execute(same(3), [tool], {
      wrapToolExecution: (call, next) => {
        wrapped.push(call.toolCallId);
        return next();
      },
    });
    expect(ran).toHaveLength(1);
    expect(wrapped).toEqual(['call_1']);
  });
});

describe('abort and timeout', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an abort during the shared run answers every merged call ABORTED', async () => {
    const caller = new AbortController();
    const hanging = defineTool({
      name: 'getPrice',
      description: 'Hangs until aborted.',
      effect: 'read',
      execute: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
          caller.abort(new Error('user left'));
        }),
    });
    const outcome = await runToolCalls(
      { assistant: assistantWithCalls(same(3)), counts: emptyTurnCounts(), signal: caller.signal },
      resolvedRuntime(createToolRuntime({ tools: [hanging] })),
    );
    expect(outcome.aborted).toBe(true);
    expect(outcome.results.map((r) => r.type === 'error' && [r.code, r.sharedWith])).toEqual([
      ['ABORTED', undefined],
      ['ABORTED', 'call_1'],
      ['ABORTED', 'call_1'],
    ]);
    expect(outcome.toolMessages).toHaveLength(3);
  });

  it('a timeout of the shared run answers every merged call TOOL_UNAVAILABLE', async () => {
    // The tool's timeout passes on a fake clock.
    vi.useFakeTimers();
    let started = 0;
    const slow = defineTool({
      name: 'slow',
      description: 'Never settles.',
      effect: 'read',
      timeoutMs: 5,
      retries: 0,
      execute: () => {
        started++;
        return new Promise(() => {});
      },
    });
    const executing = execute(
      Array.from({ length: 3 }, () => ({ name: 'slow' })),
      [slow],
    );
    await vi.advanceTimersByTimeAsync(5);
    const result = await executing;
    expect(started).toBe(1);
    expect(result.results.map((r) => r.type === 'error' && [r.code, r.sharedWith])).toEqual([
      ['TOOL_UNAVAILABLE', undefined],
      ['TOOL_UNAVAILABLE', 'call_1'],
      ['TOOL_UNAVAILABLE', 'call_1'],
    ]);
  });
});

describe('hostile responses', () => {
  it('10,000 identical calls run once, each answered, with events', async () => {
    const { tool, ran } = pricing();
    const recorder = recordEvents();
    const result = await execute(same(10_000), [tool], {
      limits: { perTool: 20_000, total: 20_000 },
      onEvent: recorder.listener,
    });
    expect(ran).toHaveLength(1);
    expect(result.messages).toHaveLength(10_002);
    expect(result.results.filter((r) => r.sharedWith === 'call_1')).toHaveLength(9_999);
    expect(recorder.ofType('tool-call-end')).toHaveLength(10_000);
  });

  it('identical calls with non-JSON arguments are each refused as INVALID_JSON, never merged', async () => {
    const { tool, ran } = pricing();
    const result = await execute(same(3, 'sku = X-1'), [tool]);
    expect(ran).toHaveLength(0);
    expect(result.results.map((r) => [r.type === 'error' && r.code, r.sharedWith])).toEqual([
      ['INVALID_JSON', undefined],
      ['INVALID_JSON', undefined],
      ['INVALID_JSON', undefined],
    ]);
  });
});
