import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import type { ToolExecutionPolicy } from '../chain/policy.js';
import { createToolRuntime } from '../chain/runtime.js';
import { PermissionDeniedError } from '../core/errors/permission-denied-error.js';
import { ToolInputError } from '../core/errors/tool-input-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import type { Message, ToolMessage } from '../core/message.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { assistantWithCalls, type CallSpec } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { type AnyTool, defineTool, type ToolDefinition } from '../tools/define-tool.js';

// Every text the gate returns, recorded: a model-visible text that is not one of them did not pass the gate.
const gate = vi.hoisted(() => ({ outputs: new Set<string>() }));
vi.mock('./model-text.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./model-text.js')>();
  return {
    ...original,
    modelText: (...args: Parameters<typeof original.modelText>) => {
      const text = original.modelText(...args);
      gate.outputs.add(text);
      return text;
    },
  };
});

const user: Message = { role: 'user', content: 'go' };
const SECRET = 'postgres://app:S3cr3t@db-7.prod.internal:5432/crm';
/** A secret no redaction pattern knows: only provenance keeps it out. */
const PLAIN_SECRET = 'hunter2hunter2';

/** The text after the code passed the gate, and `isError` messages start with a code. */
function expectGated(message: Message | undefined): void {
  expect(message?.role).toBe('tool');
  const { content, isError, note } = message as ToolMessage;
  if (isError) {
    const match = /^([A-Z_]+): ([\s\S]*)$/.exec(content);
    expect(match, content).not.toBeNull();
    expect(gate.outputs.has(match?.[2] ?? ''), content).toBe(true);
  }
  if (note !== undefined)
    for (const line of note.split('\n')) expect(gate.outputs.has(line), line).toBe(true);
}

function tool(
  name: string,
  execute: () => unknown,
  extra: Partial<ToolDefinition<unknown, unknown>> = {},
): AnyTool {
  return defineTool<unknown, unknown>({
    name,
    description: `${name}.`,
    effect: 'read',
    retries: 0,
    execute,
    ...extra,
  });
}

const typed = tool('typed', () => 'ok', {
  input: {
    type: 'object',
    properties: {
      items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
    },
    additionalProperties: false,
  },
});
const zodTool = tool('zodTool', () => 'ok', {
  input: z.object({
    dsn: z.string().regex(/^x/, { error: (issue) => `not a valid DSN: ${String(issue.input)}` }),
  }),
});
const valibotTool = tool('valibotTool', () => 'ok', {
  input: toStandardJsonSchema(v.object({ env: v.picklist(['dev', 'prod']) })),
});
const throwing = (thrown: unknown, extra: Partial<ToolDefinition<unknown, unknown>> = {}) =>
  tool(
    'throwing',
    () => {
      throw thrown;
    },
    extra,
  );

async function run(calls: CallSpec[], tools: AnyTool[], policy: ToolExecutionPolicy = {}) {
  return createToolRuntime({ tools, ...policy }).executeToolCalls({
    messages: [user],
    response: assistantWithCalls(calls),
  });
}

describe('every tool message passes the gate', () => {
  it.each<[string, CallSpec[], AnyTool[], ToolExecutionPolicy]>([
    ['UNKNOWN_TOOL', [{ name: SECRET }], [typed], {}],
    ['INVALID_JSON', [{ name: 'typed', arguments: '{"items": [' }], [typed], {}],
    ['ARGUMENTS_TOO_LARGE', [{ name: 'typed', arguments: { items: [] } }], [typed], { maxArgumentBytes: 4 }],
    [
      'ARGUMENTS_TOO_DEEP',
      [{ name: 'typed', arguments: { items: [[[]]] } }],
      [typed],
      { maxArgumentDepth: 1 },
    ],
    ['FORBIDDEN_KEY', [{ name: 'typed', arguments: '{"__proto__": {}}' }], [typed], {}],
    ['INVALID_ARGUMENTS', [{ name: 'typed', arguments: { items: [{ id: 1 }] } }], [typed], {}],
    [
      'TOO_MANY_INVALID_ATTEMPTS',
      [1, 2].map(() => ({ name: 'typed', arguments: { items: 1 } })),
      [typed],
      { maxInvalidAttempts: 1 },
    ],
    [
      'TOOL_CALL_LIMIT',
      [1, 2].map((n) => ({ name: 'typed', arguments: { items: [{ id: String(n) }] } })),
      [typed],
      { limits: { perTool: 1 }, onLimitExceeded: 'feedback' },
    ],
    [
      'TOOL_ERROR (written for the model)',
      [{ name: 'throwing' }],
      [throwing(new ToolInputError({ message: SECRET }))],
      {},
    ],
    ['TOOL_ERROR (withheld)', [{ name: 'throwing' }], [throwing(new Error(SECRET))], {}],
    [
      'TOOL_ERROR (opted in)',
      [{ name: 'throwing' }],
      [throwing(new Error(SECRET), { showErrorMessages: true })],
      {},
    ],
    ['TOOL_UNAVAILABLE', [{ name: 'throwing' }], [throwing(new TransientToolError({ message: SECRET }))], {}],
    [
      'PERMISSION_DENIED (tool)',
      [{ name: 'throwing' }],
      [throwing(new PermissionDeniedError({ message: SECRET }))],
      {},
    ],
    [
      'PERMISSION_DENIED (hook)',
      [{ name: 'typed', arguments: {} }],
      [typed],
      { decide: () => ({ type: 'deny', reason: SECRET }) },
    ],
    [
      'CONTRACT_VIOLATION',
      [{ name: 'contract' }],
      [
        tool('contract', () => ({ status: SECRET }), {
          output: { type: 'object', properties: { status: { enum: ['A'] } } },
        }),
      ],
      {},
    ],
  ])('%s', async (_name, calls, tools, policy) => {
    const result = await run(calls, tools, policy);
    const answers = result.messages.slice(2);
    expect(answers.length).toBe(calls.length);
    expect(answers.some((m) => m.role === 'tool' && m.isError)).toBe(true);
    for (const message of answers) {
      expectGated(message);
      expect(message.content).not.toContain('S3cr3t');
    }
  });

  it('INTERNAL_ERROR (a validator that throws, a fatal failure) and ABORTED', async () => {
    const brokenValidator = tool('broken', () => 'ok', {
      input: { type: 'object' },
      schemaCompiler: {
        compile: () => () => {
          throw new Error(SECRET);
        },
      },
    });
    for (const [name, tools] of [
      ['broken', [brokenValidator]],
      ['throwing', [throwing(new TypeError(SECRET))]],
    ] as const) {
      const outcome = await createToolRuntime({ tools: [...tools] }).executeToolCall({ name });
      expect(outcome.type === 'answered' && outcome.code).toBe('INTERNAL_ERROR');
      if (outcome.type === 'answered')
        expectGated({ role: 'tool', toolCallId: 'x', name, content: outcome.content, isError: true });
    }
    const aborting = new AbortController();
    const slow = tool('slow', () => {
      aborting.abort(new Error(SECRET));
      return new Promise(() => {});
    });
    const aborted = await runToolLoop({
      model: new ScriptedModel({ script: [assistantWithCalls([{ name: 'slow' }])] }),
      tools: [slow],
      messages: [user],
      signal: aborting.signal,
    });
    const cut = aborted.messages.filter((m) => m.role === 'tool');
    expect(cut.map((m) => m.role === 'tool' && m.errorCode)).toEqual(['ABORTED']);
    for (const message of cut) expectGated(message);
  });

  it("the loop's own texts: an unknown tool under unknownTool: 'throw', the calls a failed round never ran, the guard's note", async () => {
    const stopped = await runToolLoop({
      model: new ScriptedModel({
        script: [assistantWithCalls([{ name: 'typed', arguments: {} }, { name: SECRET }])],
      }),
      runtime: createToolRuntime({ tools: [typed], unknownTool: 'throw' }),
      messages: [user],
    });
    const answers = stopped.messages.filter((m) => m.role === 'tool');
    expect(answers.map((m) => m.role === 'tool' && m.errorCode)).toEqual(['INTERNAL_ERROR', 'UNKNOWN_TOOL']);
    for (const message of answers) {
      expectGated(message);
      expect(message.content).not.toContain('S3cr3t');
    }
    const same = assistantWithCalls([{ name: 'getOrder', arguments: { id: 'A' } }]);
    const looped = await runToolLoop({
      model: new ScriptedModel({ script: [same, same, same] }),
      tools: [tool('getOrder', () => ({ code: 0 }))],
      messages: [user],
    });
    const noted = looped.messages.filter((m) => m.role === 'tool' && m.note !== undefined);
    expect(noted.length).toBeGreaterThan(0);
    for (const message of noted) expectGated(message);
  });
});

describe('validation issues: paths kept, values never shown', () => {
  it('a zod issue whose message quotes the value: the model gets the path and the problem, not the DSN', async () => {
    const recorder = recordEvents();
    const result = await createToolRuntime({ tools: [zodTool] }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'zodTool', arguments: { dsn: SECRET } }]),
      onEvent: recorder.listener,
      includeContent: true,
    });
    const content = result.messages[2]?.content ?? '';
    expect(content).toBe(
      "INVALID_ARGUMENTS: The arguments do not match the schema of tool 'zodTool': /dsn: not a valid DSN: [redacted:value]. Fix them and call again.",
    );
    // The developer keeps the original text.
    expect(result.results[0]?.type === 'error' && result.results[0].error).toContain(SECRET);
    expect(recorder.ofType('tool-call-end').filter((e) => e.outcome !== 'success')[0]?.error).toContain(
      SECRET,
    );
  });

  it('a valibot message that quotes a value no pattern knows', async () => {
    const result = await run([{ name: 'valibotTool', arguments: { env: PLAIN_SECRET } }], [valibotTool]);
    const content = result.messages[2]?.content ?? '';
    expect(content).toContain(
      '/env: Invalid type: Expected ("dev" | "prod") but received "[redacted:value]"',
    );
    expect(content).not.toContain(PLAIN_SECRET);
  });

  it('nested paths keep their shape; a key that is a secret is redacted within its path', async () => {
    const result = await run([{ name: 'typed', arguments: { items: [{ id: 7 }], [SECRET]: 1 } }], [typed]);
    const content = result.messages[2]?.content ?? '';
    expect(content).toContain('/items/0/id: must be string');
    expect(content).not.toContain('S3cr3t');
  });
});
