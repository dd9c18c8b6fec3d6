import { describe, expect, it } from 'vitest';
import { NoToolCallError } from '../core/errors/no-tool-call-error.js';
import { UnknownToolError } from '../core/errors/unknown-tool-error.js';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool } from '../tools/define-tool.js';
import { createReferenceTools } from './__fixtures__/reference-tools.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };

describe('executeToolCalls: the chain', () => {
  it('runs a tool and appends its JSON-serialized result after the assistant message', async () => {
    const { tools } = createReferenceTools();
    const response = assistantWithCalls([{ name: 'echo', arguments: { text: 'spring ai' } }]);
    const result = await createToolRuntime({ tools }).executeToolCalls({ messages: [user], response });
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(result.messages[1]).toEqual(response);
    expect(result.messages[2]).toEqual({
      role: 'tool',
      toolCallId: 'call_1',
      name: 'echo',
      content: '"SPRING AI"',
      isError: false,
    });
    expect(result.results[0]).toMatchObject({ type: 'success', value: 'SPRING AI', attempts: 1 });
    expect(result.returnDirect).toBe(false);
  });

  it('takes the response as the assistant message itself: an object holding it is no response', async () => {
    const { tools } = createReferenceTools();
    const message = assistantWithCalls([{ name: 'echo', arguments: { text: 'x' } }]);
    const held = createToolRuntime({ tools }).executeToolCalls({
      messages: [user],
      response: { message } as never,
    });
    await expect(held).rejects.toThrow(NoToolCallError);
  });

  it('throws NoToolCallError when the response requests no tool', async () => {
    const { tools } = createReferenceTools();
    for (const response of [
      { role: 'assistant' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hi', toolCalls: [] },
    ]) {
      const failure = createToolRuntime({ tools }).executeToolCalls({ messages: [user], response });
      await expect(failure).rejects.toThrow(NoToolCallError);
      await expect(failure).rejects.toThrow('No tool call requested by the model response.');
    }
  });

  it('tells the model an unknown tool is unknown and lists the available ones', async () => {
    const { tools } = createReferenceTools();
    const recorder = recordEvents();
    const response = assistantWithCalls([{ name: 'nope', arguments: {} }]);
    const result = await createToolRuntime({ tools }).executeToolCalls({
      messages: [user],
      response,
      onEvent: recorder.listener,
    });
    const message = result.messages[2];
    expect(message).toMatchObject({ role: 'tool', isError: true, errorCode: 'UNKNOWN_TOOL', name: 'nope' });
    expect(message?.content).toBe(
      "UNKNOWN_TOOL: No tool named 'nope'. Available tools: echo, noArgs, explode, counted, addNumbers, leaky, flaky.",
    );
    const [error] = recorder.ofType('tool-call-end').filter((e) => e.outcome !== 'success');
    expect(error).toMatchObject({ toolCallId: 'call_1', toolName: 'nope', code: 'UNKNOWN_TOOL' });
    expect(error?.availableTools).toContain('echo');
  });

  it("throws UnknownToolError under unknownTool: 'throw' with the tool, call id and available tools", async () => {
    const { tools } = createReferenceTools();
    const response = assistantWithCalls([{ name: 'nope', id: 'c-9' }]);
    const error = await createToolRuntime({ tools, unknownTool: 'throw' })
      .executeToolCalls({ messages: [user], response })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownToolError);
    expect(error).toMatchObject({ toolName: 'nope', toolCallId: 'c-9', code: 'UNKNOWN_TOOL' });
    expect((error as UnknownToolError).availableTools).toHaveLength(7);
    expect((error as Error).message).toContain("'nope'");
  });

  it.each(['', '   ', '\n\t '])(
    'treats blank arguments %j as {}: a no-argument tool runs once',
    async (args) => {
      const { tools, counters } = createReferenceTools();
      const response = assistantWithCalls([{ name: 'noArgs', arguments: args }]);
      const result = await createToolRuntime({ tools }).executeToolCalls({ messages: [user], response });
      expect(counters.noArgs).toBe(1);
      expect(result.messages[2]?.content).toBe('"normalized-empty-arguments"');
    },
  );

  it('does not run the tool on broken JSON and gives the model a short parse error', async () => {
    let ran = 0;
    const tool = defineTool({ name: 'echo', description: 'd', effect: 'read', execute: () => ++ran });
    const response = assistantWithCalls([{ name: 'echo', arguments: '{"text": "abc' }]);
    const result = await createToolRuntime({ tools: [tool] }).executeToolCalls({
      messages: [user],
      response,
    });
    expect(ran).toBe(0);
    const content = result.messages[2]?.content ?? '';
    expect(content).toMatch(/^INVALID_JSON: The arguments are not valid JSON/);
    expect(content).not.toContain('abc');
    expect(content.length).toBeLessThan(150);
  });

  it('rejects schema violations with a stable code and {path, problem} pairs, without echoing values', async () => {
    const { tools } = createReferenceTools();
    const secret = 'S'.repeat(500);
    const response = assistantWithCalls([{ name: 'addNumbers', arguments: { a: secret, c: 1 } }]);
    const result = await createToolRuntime({ tools }).executeToolCalls({ messages: [user], response });
    const message = result.messages[2];
    expect(message).toMatchObject({ errorCode: 'INVALID_ARGUMENTS' });
    expect(message?.content).toContain('/a: must be number');
    expect(message?.content).toContain('/b: is required');
    expect(message?.content).toContain('/c: is not an allowed property');
    expect(message?.content).not.toContain('SSSS');
  });

  it('stops trying a tool after 3 invalid-argument results in one turn, and a new turn starts over', async () => {
    const { tools } = createReferenceTools();
    const bad = { name: 'addNumbers', arguments: { a: 'x', b: 1 } };
    let messages: readonly Message[] = [user];
    const codes: Array<string | undefined> = [];
    for (let round = 0; round < 4; round++) {
      const result = await createToolRuntime({ tools }).executeToolCalls({
        messages,
        response: assistantWithCalls([bad]),
      });
      messages = result.messages;
      codes.push(result.results[0]?.type === 'error' ? result.results[0].code : 'success');
    }
    expect(codes).toEqual([
      'INVALID_ARGUMENTS',
      'INVALID_ARGUMENTS',
      'INVALID_ARGUMENTS',
      'TOO_MANY_INVALID_ATTEMPTS',
    ]);
    expect(messages.at(-1)?.content).toContain('will not be tried again');
    const good = assistantWithCalls([{ name: 'addNumbers', arguments: { a: 1, b: 2 } }]);
    const stillBlocked = await createToolRuntime({ tools }).executeToolCalls({ messages, response: good });
    expect(stillBlocked.results[0]?.type).toBe('error');
    const nextTurn = await createToolRuntime({ tools }).executeToolCalls({
      messages: [...messages, user],
      response: good,
    });
    expect(nextTurn.messages.at(-1)?.content).toBe('3');
  });

  it('counts invalid attempts within one response in the model order, and the limit is settable', async () => {
    const { tools } = createReferenceTools();
    const bad = { name: 'addNumbers', arguments: '{' };
    const response = assistantWithCalls([bad, bad, bad]);
    const result = await createToolRuntime({ tools, maxInvalidAttempts: 2 }).executeToolCalls({
      messages: [user],
      response,
    });
    expect(result.results.map((r) => (r.type === 'error' ? r.code : 'ok'))).toEqual([
      'INVALID_JSON',
      'INVALID_JSON',
      'TOO_MANY_INVALID_ATTEMPTS',
    ]);
  });

  it('validates with a Standard Schema (zod and valibot) and passes the parsed output to the tool', async () => {
    const { z } = await import('zod');
    const v = await import('valibot');
    const { toStandardJsonSchema } = await import('@valibot/to-json-schema');
    const seen: unknown[] = [];
    const zodTool = defineTool({
      name: 'z',
      description: 'd',
      effect: 'read',
      input: z.object({ n: z.coerce.number().int() }),
      execute: (args) => {
        seen.push(args);
        return args.n * 2;
      },
    });
    const valibotTool = defineTool({
      name: 'v',
      description: 'd',
      effect: 'read',
      input: toStandardJsonSchema(v.object({ s: v.pipe(v.string(), v.minLength(2)) })),
      execute: (args) => args.s,
    });
    const response = assistantWithCalls([
      { name: 'z', arguments: { n: '21' } },
      { name: 'v', arguments: { s: 'x' } },
      { name: 'z', arguments: { n: 1.5 } },
    ]);
    const result = await createToolRuntime({ tools: [zodTool, valibotTool] }).executeToolCalls({
      messages: [user],
      response,
    });
    expect(seen).toEqual([{ n: 21 }]);
    expect(result.messages[2]?.content).toBe('42');
    expect(result.messages[3]).toMatchObject({ errorCode: 'INVALID_ARGUMENTS' });
    expect(result.messages[3]?.content).toContain('/s:');
    expect(result.messages[4]?.content).toContain('/n:');
  });

  it('returns returnDirect only when every executed tool asks for it', async () => {
    const direct = (name: string, returnDirect: boolean) =>
      defineTool({ name, description: 'd', effect: 'read', returnDirect, execute: () => name });
    const tools = [direct('a', true), direct('b', true), direct('c', false)];
    const run = (names: string[]) =>
      createToolRuntime({ tools }).executeToolCalls({
        messages: [user],
        response: assistantWithCalls(names.map((name) => ({ name }))),
      });
    expect((await run(['a', 'b'])).returnDirect).toBe(true);
    expect((await run(['a', 'c'])).returnDirect).toBe(false);
    expect((await run(['a', 'unknown'])).returnDirect).toBe(true);
    expect((await run(['unknown'])).returnDirect).toBe(false);
  });

  it('serializes results deterministically and truncates long ones with a marker', async () => {
    const tool = defineTool({
      name: 't',
      description: 'd',
      effect: 'read',
      maxResultChars: 200,
      execute: ({ big }: { big?: boolean }) =>
        big
          ? 'x'.repeat(1000)
          : { z: 1, a: new Date(0), u: undefined, n: 10n, m: new Map([['k', new Set([2, 1])]]) },
    });
    const response = assistantWithCalls([{ name: 't' }, { name: 't', arguments: { big: true } }]);
    const result = await createToolRuntime({ tools: [tool] }).executeToolCalls({
      messages: [user],
      response,
    });
    expect(result.messages[2]?.content).toBe(
      '{"a":"1970-01-01T00:00:00.000Z","m":[["k",[1,2]]],"n":"10","z":1}',
    );
    const long = result.results[1];
    expect(long?.content.length).toBeLessThanOrEqual(200);
    expect(long?.content).toContain('truncated');
    expect(long).toMatchObject({ type: 'success', truncated: true });
  });
});
