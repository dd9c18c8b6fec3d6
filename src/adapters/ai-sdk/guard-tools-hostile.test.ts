import { generateText, jsonSchema, stepCountIs, type ToolSet, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import {
  callsOf,
  scriptedModel,
  textOf,
  toolOutputsIn,
  toolsOffered,
} from './__fixtures__/guard-tools-model.js';
import { guardTools } from './guard-tools.js';

/** One model call with `calls`, then text; the outputs the model read for each call id. */
async function answerOf(tools: ToolSet, ...calls: { id: string; name: string; input: unknown }[]) {
  const model = scriptedModel((_, index) => (index === 0 ? callsOf(...calls) : textOf('Done.')));
  const result = await generateText({ model, tools, prompt: 'Go.', stopWhen: stepCountIs(3) });
  return { result, outputs: toolOutputsIn(model.doGenerateCalls[1]?.prompt ?? []) };
}

const echo = (runs: unknown[] = []) =>
  tool({
    description: 'Echo.',
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => {
      runs.push(text);
      return { text };
    },
  });

describe('guardTools with hostile input', () => {
  it('input that is not JSON never reaches the tool; a model repeating it is stopped by the loop guard', async () => {
    const runs: unknown[] = [];
    const guarded = guardTools({ echo: echo(runs) });
    const model = scriptedModel((options, index) =>
      toolsOffered(options)
        ? callsOf({ id: `c${index}`, name: 'echo', input: '{"text": "hi"' })
        : textOf('I give up.'),
    );
    const result = await generateText({
      model,
      tools: guarded.tools,
      prompt: 'Go.',
      stopWhen: [stepCountIs(10), guarded.stopWhen],
      prepareStep: guarded.prepareStep,
    });
    expect(runs).toEqual([]);
    expect(result.text).toBe('I give up.');
    expect(guarded.stopEvidence()?.detector).toBe('exact-repeat');
  });

  it('refuses huge arguments and a result that cannot be serialized, without crashing the loop', async () => {
    const runs: unknown[] = [];
    const tools = {
      echo: echo(runs),
      cycle: tool({
        description: 'A cycle.',
        inputSchema: z.object({}),
        execute: async () => {
          const node: { self?: unknown } = {};
          node.self = node;
          return node;
        },
      }),
    };
    const guarded = guardTools(tools, { maxArgumentBytes: 1024 });
    const { outputs } = await answerOf(
      guarded.tools,
      { id: 'c1', name: 'echo', input: { text: 'x'.repeat(5000) } },
      { id: 'c2', name: 'cycle', input: {} },
    );
    expect(runs).toEqual([]);
    expect((outputs.get('c1') as { value: string }).value).toMatch(/^ARGUMENTS_TOO_LARGE/);
    expect((outputs.get('c2') as { value: string }).value).toMatch(/^INTERNAL_ERROR/);
  });

  it('passes a client-side tool (no execute) and a provider tool through untouched', async () => {
    const ask = tool({ description: 'Ask the user.', inputSchema: z.object({ question: z.string() }) });
    const search = {
      type: 'provider',
      id: 'openai.web_search',
      args: {},
      inputSchema: z.object({}),
    } as const;
    const tools = { ask, search, echo: echo() } as unknown as ToolSet;
    const guarded = guardTools(tools);
    expect(guarded.tools.ask).toBe(ask);
    expect(guarded.tools.search).toBe(search);
    const { result } = await answerOf(guarded.tools, {
      id: 'c1',
      name: 'ask',
      input: { question: 'Which?' },
    });
    expect(result.toolCalls.map((call) => call.toolName)).toEqual(['ask']);
    expect(result.toolResults).toEqual([]);
  });

  it('keeps every other field of a tool (description, schema, needsApproval, toModelOutput)', () => {
    const toModelOutput = () => ({ type: 'text' as const, value: 'shown' });
    const original = tool({ ...echo(), needsApproval: true, toModelOutput });
    const guarded = guardTools({ echo: original }).tools.echo;
    expect(guarded?.description).toBe('Echo.');
    expect(guarded?.inputSchema).toBe(original.inputSchema);
    expect(guarded?.needsApproval).toBe(true);
    expect(guarded?.toModelOutput).toBe(toModelOutput);
    expect(guarded?.execute).not.toBe(original.execute);
  });

  it('refuses a tool name providers reject, naming it safely; guards a legal name such as __proto__', async () => {
    const hostile = { 'rm -rf /\n\u001b[31m': echo() };
    expect(() => guardTools(hostile)).toThrow(InvalidOptionsError);
    expect(() => guardTools(hostile)).toThrow(/letters, digits/);
    expect(() => guardTools(hostile)).toThrow(expect.objectContaining({ option: 'tools."rm -rf /[31m"' }));
    const runs: unknown[] = [];
    const tools: ToolSet = {};
    Object.defineProperty(tools, '__proto__', { value: echo(runs), enumerable: true });
    const guarded = guardTools(tools);
    expect(Object.keys(guarded.tools)).toEqual(['__proto__']);
    await answerOf(guarded.tools, { id: 'c1', name: '__proto__', input: { text: 'hi' } });
    expect(runs).toEqual(['hi']);
  });

  it('says what is wrong with malformed options, before anything runs', () => {
    const tools = { echo: echo() };
    const cases: [unknown, RegExp][] = [
      [{ writes: 'echo' }, /writes: must be an array/],
      [{ writes: ['send'] }, /writes\[0\]: names no guarded tool: "send"/],
      [{ perTool: { echo: { timeoutMs: -1 } } }, /perTool\.echo/],
      [{ perTool: { echo: { idempotency: { ttlMs: 5 } } } }, /write tools only/],
      [{ perTool: { echo: { revalidate: 'no' } } }, /revalidate: must be a boolean/],
      [{ perTool: { echo: { effect: 'read' } }, writes: ['echo'] }, /yet writes names the tool/],
      [{ tmieoutMs: 5 }, /tmieoutMs: is not an option of guardTools/],
      [{ timeoutMs: 0 }, /timeoutMs/],
      [{ limits: { perTool: 'many' } }, /limits\.perTool/],
      [{ loopGuard: { repeatLimit: 1 } }, /guard\.repeatLimit/],
      [{ sessionId: '' }, /sessionId/],
      [{ onLoop: 'log' }, /onLoop/],
      ['fast', /options must be an object/],
    ];
    for (const [options, message] of cases) {
      expect(() => guardTools(tools, options as never), JSON.stringify(options)).toThrow(InvalidOptionsError);
      expect(() => guardTools(tools, options as never), JSON.stringify(options)).toThrow(message);
    }
    expect(() => guardTools(null as never)).toThrow(/expects a ToolSet/);
    expect(() => guardTools({ echo: null } as never)).toThrow(/tools\.echo: must be an AI SDK tool/);
  });
});

describe('guardTools, the rest of the chain', () => {
  it("holds a result to the tool's outputSchema", async () => {
    const tools = {
      price: tool({
        description: 'A price.',
        inputSchema: z.object({}),
        outputSchema: z.object({ cents: z.number().int() }),
        execute: async () => ({ cents: 'ten' as unknown as number }),
      }),
    };
    const { outputs } = await answerOf(guardTools(tools).tools, { id: 'c1', name: 'price', input: {} });
    expect((outputs.get('c1') as { value: string }).value).toMatch(/^CONTRACT_VIOLATION/);
  });

  it('counts calls against the limits of the guard', async () => {
    const runs: unknown[] = [];
    const guarded = guardTools({ echo: echo(runs) }, { limits: { perTool: 1 } });
    const { outputs } = await answerOf(
      guarded.tools,
      { id: 'c1', name: 'echo', input: { text: 'a' } },
      { id: 'c2', name: 'echo', input: { text: 'b' } },
    );
    expect(runs).toEqual(['a']);
    expect((outputs.get('c2') as { value: string }).value).toMatch(/^TOOL_CALL_LIMIT/);
  });

  it('refuses the same write call id with other arguments (the digest is checked)', async () => {
    const runs: unknown[] = [];
    const guarded = guardTools({ echo: echo(runs) }, { writes: ['echo'] });
    await answerOf(guarded.tools, { id: 'c1', name: 'echo', input: { text: 'a' } });
    const { outputs } = await answerOf(guarded.tools, { id: 'c1', name: 'echo', input: { text: 'b' } });
    expect(runs).toEqual(['a']);
    expect((outputs.get('c1') as { value: string }).value).toMatch(/^IDEMPOTENCY_CONFLICT/);
  });

  it("validates with a jsonSchema's own validate, and gives a streaming tool's last value", async () => {
    const seen: unknown[] = [];
    const tools = {
      stream: tool({
        description: 'Streams.',
        inputSchema: jsonSchema<{ n: number }>(
          { type: 'object', properties: { n: { type: 'number' } } },
          {
            validate: (value) => {
              seen.push(value);
              return { success: true, value: value as { n: number } };
            },
          },
        ),
        async *execute({ n }) {
          yield { step: 1, n };
          yield { step: 2, n };
        },
      }),
    };
    const { outputs } = await answerOf(guardTools(tools).tools, {
      id: 'c1',
      name: 'stream',
      input: { n: 7 },
    });
    expect(outputs.get('c1')).toEqual({ type: 'json', value: { step: 2, n: 7 } });
    // Once by the AI SDK, once by the chain.
    expect(seen).toEqual([{ n: 7 }, { n: 7 }]);
  });

  it('runs a transforming schema once the chain does not validate again (revalidate: false)', async () => {
    const tools = {
      count: tool({
        description: 'Counts.',
        inputSchema: z.object({ n: z.string().transform(Number) }),
        execute: async ({ n }) => ({ doubled: n * 2 }),
      }),
    };
    const call = { id: 'c1', name: 'count', input: { n: '21' } };
    const strict = await answerOf(guardTools(tools).tools, call);
    expect((strict.outputs.get('c1') as { value: string }).value).toMatch(/^INVALID_ARGUMENTS/);
    const loose = await answerOf(
      guardTools(tools, { perTool: { count: { revalidate: false } } }).tools,
      call,
    );
    expect(loose.outputs.get('c1')).toEqual({ type: 'json', value: { doubled: 42 } });
  });
});
