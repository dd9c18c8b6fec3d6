import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NoToolCallError } from '../core/errors/no-tool-call-error.js';
import { ToolExecutionError } from '../core/errors/tool-execution-error.js';
import type { Message, ToolCall } from '../core/message.js';
import type { ToolExecutionResult } from '../core/tool-execution-result.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { type AnyTool, defineTool } from '../tools/define-tool.js';
import { createReferenceTools } from './__fixtures__/reference-tools.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };

/** A naive deep merge, as careless tool code writes it: the way prototype pollution usually happens. */
function naiveMerge(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
): Record<string, unknown> {
  for (const key in source) {
    const value = source[key];
    if (typeof value === 'object' && value !== null) {
      target[key] ??= {};
      naiveMerge(target[key] as Record<string, unknown>, value as Record<string, unknown>);
    } else target[key] = value;
  }
  return target;
}

const merging = defineTool({
  name: 'merge',
  description: 'Merges its arguments into a settings object.',
  effect: 'read',
  execute: (args: Record<string, unknown>) => naiveMerge({}, args),
});

async function run(
  name: string,
  args: unknown,
  tools: readonly AnyTool[] = [merging],
): Promise<ToolExecutionResult> {
  return createToolRuntime({ tools }).executeToolCalls({
    messages: [user],
    response: assistantWithCalls([{ name, arguments: args }]),
  });
}

/** Every assistant tool call has exactly one tool response, in order, right after it. */
function expectWellFormed(result: ToolExecutionResult): void {
  const assistantIndex = result.messages.findIndex((m) => m.role === 'assistant');
  const assistant = result.messages[assistantIndex];
  const calls = assistant?.role === 'assistant' ? (assistant.toolCalls ?? []) : [];
  const responses = result.messages.slice(assistantIndex + 1);
  expect(responses).toHaveLength(calls.length);
  responses.forEach((message, index) => {
    expect(message.role).toBe('tool');
    if (message.role === 'tool') {
      expect(message.toolCallId).toBe(String(calls[index]?.id));
      expect(typeof message.content).toBe('string');
    }
  });
}

afterEach(() => {
  vi.useRealTimers();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe('hostile arguments', () => {
  it('refuses arguments over the size cap before parsing', async () => {
    const huge = JSON.stringify({ text: 'x'.repeat(1024 * 1024) });
    const result = await run('merge', huge);
    expect(result.messages[2]).toMatchObject({ errorCode: 'ARGUMENTS_TOO_LARGE' });
    const multiByte = JSON.stringify({ text: 'é'.repeat(600_000) });
    expect((await run('merge', multiByte)).messages[2]).toMatchObject({ errorCode: 'ARGUMENTS_TOO_LARGE' });
  });

  it('refuses nesting deeper than the cap, even 100,000 levels deep', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const result = await run('merge', deep);
    expect(result.messages[2]).toMatchObject({ errorCode: 'ARGUMENTS_TOO_DEEP' });
    const arrays = `{"a":${'['.repeat(70)}${']'.repeat(70)}}`;
    expect((await run('merge', arrays)).messages[2]).toMatchObject({ errorCode: 'ARGUMENTS_TOO_DEEP' });
  });

  it.each([
    ['top-level __proto__', '{"__proto__": {"polluted": "yes"}}'],
    ['nested __proto__', '{"a": {"b": {"__proto__": {"polluted": "yes"}}}}'],
    ['constructor.prototype', '{"constructor": {"prototype": {"polluted": "yes"}}}'],
    ['__proto__ in an array item', '{"list": [{"__proto__": {"polluted": "yes"}}]}'],
  ])('refuses %s and pollutes no prototype', async (_name, text) => {
    const result = await run('merge', text);
    expect(result.messages[2]).toMatchObject({ errorCode: 'FORBIDDEN_KEY', isError: true });
  });

  it('lets harmless "constructor" and "prototype" keys through', async () => {
    const result = await run('merge', { constructor: 'Car', prototype: 'v2' });
    expect(result.messages[2]?.content).toBe('{"constructor":"Car","prototype":"v2"}');
  });

  it.each([
    ['a JSON string', '"text"'],
    ['a JSON array', '[1,2]'],
    ['null', 'null'],
    ['a number', '42'],
  ])('refuses %s as arguments: they must be an object', async (_name, text) => {
    expect((await run('merge', text)).messages[2]).toMatchObject({ errorCode: 'INVALID_ARGUMENTS' });
  });
});

describe('hostile tool names', () => {
  it.each([
    ['empty', ''],
    ['10,000 characters', 'n'.repeat(10_000)],
    ['control characters', 'echo\u0000\u001b[31m\u202e\r\nrm -rf'],
  ])('answers a %s name as an unknown tool, echoing it safely', async (_name, name) => {
    const result = await run(name, {});
    const message = result.messages[2];
    expect(message).toMatchObject({ errorCode: 'UNKNOWN_TOOL', isError: true });
    expect(message?.content.length).toBeLessThan(300);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking that none survive.
    expect(message?.content).not.toMatch(/[\u0000-\u001f\u202e]/);
  });

  it('answers a call whose name is not even a string', async () => {
    const response = {
      role: 'assistant' as const,
      content: '',
      toolCalls: [{ id: 'x', name: 42 as unknown as string, arguments: '{}' }],
    };
    const result = await createToolRuntime({ tools: [merging] }).executeToolCalls({
      messages: [user],
      response,
    });
    expect(result.messages[2]).toMatchObject({ errorCode: 'UNKNOWN_TOOL', toolCallId: 'x' });
  });
});

describe('hostile tools', () => {
  const withheld =
    "TOOL_ERROR: Tool 'thrower' failed; its error text is withheld. Check the arguments and call it again only with changed values: repeating the same call will not help.";
  it.each([
    ['a string', 'plain string failure', withheld],
    ['null', null, withheld],
    ['undefined', undefined, withheld],
    ['an object that is not an Error', { reason: 'nope', message: 'object message' }, withheld],
    ['a number', 7, withheld],
  ])('turns a throw of %s into a clear tool error', async (_name, thrown, expected) => {
    const tool = defineTool({
      name: 'thrower',
      description: 'd',
      effect: 'read',
      execute: () => {
        throw thrown;
      },
    });
    const result = await run('thrower', {}, [tool]);
    expect(result.messages[2]?.content).toBe(expected);
    expect(result.results[0]).toMatchObject({ type: 'error', error: thrown });
  });

  it('answers a tool returning undefined with null', async () => {
    const tool = defineTool({ name: 'nothing', description: 'd', effect: 'read', execute: () => undefined });
    const result = await run('nothing', {}, [tool]);
    expect(result.messages[2]).toMatchObject({ content: 'null', isError: false });
  });

  it('ends a tool that never settles at its timeout', async () => {
    vi.useFakeTimers();
    const tool = defineTool({
      name: 'never',
      description: 'd',
      effect: 'read',
      timeoutMs: 100,
      retries: 0,
      execute: () => new Promise(() => {}),
    });
    const pending = run('never', {}, [tool]);
    await vi.advanceTimersByTimeAsync(100);
    expect((await pending).messages[2]).toMatchObject({ errorCode: 'TOOL_UNAVAILABLE' });
  });

  it('keeps the result well-formed when an event listener throws', async () => {
    const { tools } = createReferenceTools();
    const result = await createToolRuntime({ tools }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'echo', arguments: { text: 'a' } }]),
      onEvent: () => {
        throw new Error('log sink down');
      },
    });
    expect(result.messages[2]?.content).toBe('"A"');
  });
});

describe('properties', () => {
  const { tools } = createReferenceTools();
  const names = [...tools.map((t) => t.name), 'missing'];

  it('always returns a well-formed history for arbitrary argument text and names', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            name: fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 80 })),
            arguments: fc.oneof(fc.string({ maxLength: 200 }), fc.json({ maxDepth: 4 })),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (specs) => {
          const safe = specs.map((spec) =>
            spec.name === 'flaky' || spec.name === 'explode' ? { ...spec, name: 'echo' } : spec,
          );
          const result = await createToolRuntime({ tools, onLimitExceeded: 'feedback' }).executeToolCalls({
            messages: [user],
            response: assistantWithCalls(safe),
          });
          expectWellFormed(result);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never lets a thrown value escape as anything but a tool message', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (thrown) => {
        const tool = defineTool({
          name: 't',
          description: 'd',
          effect: 'read',
          classifyError: () => 'invalid-input',
          execute: () => {
            throw thrown;
          },
        });
        const result = await run('t', {}, [tool]);
        expectWellFormed(result);
        expect(result.messages[2]?.content.startsWith('TOOL_ERROR: ')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('hostile responses', () => {
  const echo = defineTool({
    name: 'echo',
    description: 'd',
    effect: 'read',
    execute: ({ text }: { text?: string }) => text ?? 'none',
  });

  it('answers a call whose id and arguments cannot be turned into text beside a normal call', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const nullProto = Object.create(null) as object;
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const response = {
        role: 'assistant' as const,
        content: '',
        toolCalls: [
          { id: 'ok', name: 'echo', arguments: '{"text":"a"}' },
          { id: nullProto, name: 'echo', arguments: { big: 1n } },
          { id: 'c', name: nullProto, arguments: circular },
        ] as unknown as ToolCall[],
      };
      const result = await createToolRuntime({ tools: [echo] }).executeToolCalls({
        messages: [user],
        response,
      });
      expectWellFormed(result);
      expect(result.results.map((r) => (r.type === 'error' ? r.code : r.content))).toEqual([
        '"a"',
        'INVALID_JSON',
        'UNKNOWN_TOOL',
      ]);
      // A turn of the event loop: Node reports an unhandled rejection after the microtasks drain.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('repairs duplicate and missing ids with ids unique across requests', async () => {
    const response = {
      role: 'assistant' as const,
      content: 'x',
      toolCalls: [
        { id: 'a', name: 'echo', arguments: '' },
        { id: 'a', name: 'echo', arguments: '' },
        { name: 'echo', arguments: '' },
      ] as unknown as ToolCall[],
    };
    const first = await createToolRuntime({ tools: [echo] }).executeToolCalls({ messages: [user], response });
    const second = await createToolRuntime({ tools: [echo] }).executeToolCalls({
      messages: [user],
      response,
    });
    expectWellFormed(first);
    const idsOf = (result: ToolExecutionResult) =>
      result.messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));
    const [a, repaired, missing] = idsOf(first);
    expect(a).toBe('a');
    expect(repaired).toMatch(/^tw_/);
    expect(missing).toMatch(/^tw_/);
    expect(new Set([...idsOf(first), ...idsOf(second)]).size).toBe(5);
    expect(first.messages[1]).toMatchObject({ role: 'assistant', content: 'x' });
  });

  it('answers 10,000 calls of one response, in order', async () => {
    const calls = Array.from({ length: 10_000 }, (_, n) => ({
      name: 'echo',
      arguments: { text: String(n) },
    }));
    const result = await createToolRuntime({ tools: [echo], limits: { exclude: ['echo'] } }).executeToolCalls(
      { messages: [user], response: assistantWithCalls(calls) },
    );
    expectWellFormed(result);
    expect(result.results).toHaveLength(10_000);
    expect(result.results.every((r, n) => r.content === JSON.stringify(String(n)))).toBe(true);
  });

  it('answers a Proxy with throwing traps as the list of calls with NoToolCallError, a defined rejection', async () => {
    const response = {
      role: 'assistant' as const,
      content: '',
      toolCalls: new Proxy([], {
        get() {
          throw new Error('trap');
        },
      }),
    };
    await expect(
      createToolRuntime({ tools: [echo] }).executeToolCalls({ messages: [user], response }),
    ).rejects.toThrow(NoToolCallError);
  });
});

describe('hostile return values', () => {
  const throwingProxy = new Proxy(
    {},
    {
      get() {
        throw new Error('getter trap');
      },
    },
  );
  it.each([
    ['a Proxy whose getters throw', () => throwingProxy],
    [
      'an object whose then getter throws',
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: the hostile value under test.
        get then() {
          throw new Error('then getter');
        },
      }),
    ],
    [
      'a thenable whose then throws',
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: the hostile value under test.
        then() {
          throw new Error('then call');
        },
      }),
    ],
  ])(
    'fails only the call that returns %s, keeps the siblings and leaves no timer armed',
    async (_name, value) => {
      vi.useFakeTimers();
      const hostile = defineTool({ name: 'hostile', description: 'd', effect: 'read', execute: value });
      const fine = defineTool({
        name: 'fine',
        description: 'd',
        effect: 'read',
        execute: async () => 'fine',
      });
      const result = await createToolRuntime({ tools: [hostile, fine] }).executeToolCalls({
        messages: [user],
        response: assistantWithCalls([{ name: 'fine' }, { name: 'hostile' }, { name: 'fine' }]),
      });
      expectWellFormed(result);
      expect(result.results.map((r) => r.type)).toEqual(['success', 'error', 'success']);
      expect(result.results[1]).toMatchObject({ code: 'TOOL_ERROR', errorClass: 'invalid-input' });
      expect(vi.getTimerCount()).toBe(0);
    },
  );

  it('never lets a thrown or returned value escape, whatever the built-in classifier makes of it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.anything({ withBigInt: true, withNullPrototype: true }),
        fc.boolean(),
        async (thing, throws) => {
          const tool = defineTool({
            name: 't',
            description: 'd',
            effect: 'read',
            retries: 0,
            execute: () => {
              if (throws) throw thing;
              return thing;
            },
          });
          const result = await createToolRuntime({ tools: [tool] })
            .executeToolCalls({ messages: [user], response: assistantWithCalls([{ name: 't' }]) })
            .catch((error: unknown) => {
              expect(error).toBeInstanceOf(ToolExecutionError);
              return (error as ToolExecutionError).partialResult;
            });
          expectWellFormed(result);
        },
      ),
      { numRuns: 200 },
    );
  });
});
