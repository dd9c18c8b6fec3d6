import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ContractViolationError } from '../core/errors/contract-violation-error.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { PermissionDeniedError } from '../core/errors/permission-denied-error.js';
import { ToolDefinitionError } from '../core/errors/tool-definition-error.js';
import { ToolExecutionError } from '../core/errors/tool-execution-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { type ContractViolationPolicy, defineTool, type ToolDefinition } from '../tools/define-tool.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'what is the status of order 42?' };
const response = assistantWithCalls([{ name: 'queryOrderStatus', arguments: { orderId: '42' } }]);
/** What the real service answers: a different envelope and a verdict outside the declared set. */
const drifted = { code: 0, data: { state: 'PAID' } };

const statusJsonSchema = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['SUCCESS', 'FAILED'] } },
  required: ['status'],
  additionalProperties: false,
} as const;
const statusZod = z.object({ status: z.enum(['SUCCESS', 'FAILED']) });

type Extra = Partial<Pick<ToolDefinition<unknown, unknown>, 'onContractViolation' | 'formatResult'>> & {
  output?: NonNullable<ToolDefinition<unknown, unknown>['output']>;
  maxResultChars?: number;
};

function orderTool(returns: () => unknown, extra: Extra = {}) {
  return defineTool<unknown, unknown>({
    name: 'queryOrderStatus',
    description: 'Returns the status of an order: SUCCESS or FAILED.',
    effect: 'read',
    input: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
    output: statusJsonSchema,
    execute: returns,
    ...extra,
  });
}

/** A Standard Schema that counts its calls and answers with `answer` (sync or async). */
function spySchema(answer: (value: unknown) => unknown) {
  const seen: unknown[] = [];
  const schema: StandardSchemaV1<unknown, unknown> = {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) => {
        seen.push(value);
        return answer(value) as StandardSchemaV1.Result<unknown>;
      },
    },
  };
  return { schema, seen };
}

async function run(
  tool: ReturnType<typeof orderTool>,
  policy: { onContractViolation?: ContractViolationPolicy } = {},
) {
  const recorder = recordEvents();
  const result = await createToolRuntime({ tools: [tool], ...policy }).executeToolCalls({
    messages: [user],
    response,
    onEvent: recorder.listener,
    includeContent: true,
  });
  return { result, recorder };
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the execution to throw');
    },
    (error: unknown) => error,
  );
}

describe('output contracts: a drifted result is a violation', () => {
  it.each([
    ['JSON Schema', statusJsonSchema],
    ['zod', statusZod],
  ] as const)(
    '%s: {"code":0,"data":{"state":"PAID"}} breaks { status: SUCCESS | FAILED }',
    async (_, output) => {
      const { result, recorder } = await run(orderTool(() => drifted, { output }));
      const [call] = result.results;
      expect(call).toMatchObject({ type: 'error', code: 'CONTRACT_VIOLATION', errorClass: 'invalid-input' });
      expect(call?.type === 'error' && call.error).toBeInstanceOf(ContractViolationError);
      const message = result.messages[2];
      expect(message).toMatchObject({ role: 'tool', isError: true, errorCode: 'CONTRACT_VIOLATION' });
      expect(message?.content).toMatch(/^CONTRACT_VIOLATION: Tool 'queryOrderStatus' returned a result that/);
      // The model never sees the raw value.
      for (const leaked of ['PAID', 'state', '"code"', 'data'])
        expect(message?.content).not.toContain(leaked);

      const [event] = recorder.ofType('contract-warn');
      expect(event).toMatchObject({ toolName: 'queryOrderStatus', toolCallId: 'call_1', policy: 'feedback' });
      expect(event?.value).toEqual(drifted);
      expect(event?.issues).toContainEqual(expect.objectContaining({ path: '/status' }));
      expect(recorder.ofType('contract-warn')).toHaveLength(1);
    },
  );

  it('JSON Schema: the event names every path and problem (missing verdict, undeclared fields)', async () => {
    const { recorder } = await run(orderTool(() => drifted));
    const [event] = recorder.ofType('contract-warn');
    expect(event?.issues).toEqual(
      expect.arrayContaining([
        { path: '/status', code: 'required', message: 'is required' },
        { path: '/code', code: 'not-allowed', message: 'is not an allowed property' },
        { path: '/data', code: 'not-allowed', message: 'is not an allowed property' },
      ]),
    );
  });

  it.each([
    ['JSON Schema', statusJsonSchema, 'must be one of: "SUCCESS", "FAILED"'],
    ['zod', statusZod, 'Invalid option: expected one of "SUCCESS"|"FAILED"'],
  ] as const)(
    '%s: an enumerated verdict outside the set (PAID) is a violation at /status',
    async (_, output, problem) => {
      const { result, recorder } = await run(orderTool(() => ({ status: 'PAID' }), { output }));
      expect(result.results[0]).toMatchObject({ type: 'error', code: 'CONTRACT_VIOLATION' });
      const [event] = recorder.ofType('contract-warn');
      expect(event?.value).toEqual({ status: 'PAID' });
      expect(event?.issues).toEqual([expect.objectContaining({ path: '/status', message: problem })]);
    },
  );

  it.each([
    ['JSON Schema', statusJsonSchema],
    ['zod', statusZod],
  ] as const)('%s: a verdict inside the set passes untouched, without an event', async (_, output) => {
    const { result, recorder } = await run(orderTool(() => ({ status: 'SUCCESS' }), { output }));
    expect(result.results[0]).toMatchObject({ type: 'success', value: { status: 'SUCCESS' } });
    expect(result.messages[2]?.content).toBe('{"status":"SUCCESS"}');
    expect(recorder.ofType('contract-warn')).toEqual([]);
  });
});

describe('output contracts: what a violation does', () => {
  it('throw: ToolExecutionError caused by ContractViolationError, with the partial result', async () => {
    const good = defineTool({ name: 'echo', description: 'd', effect: 'read', execute: () => 'fine' });
    const tool = orderTool(() => drifted, { onContractViolation: 'throw' });
    const recorder = recordEvents();
    const error = await thrown(
      createToolRuntime({ tools: [good, tool] }).executeToolCalls({
        messages: [user],
        response: assistantWithCalls([
          { name: 'echo', arguments: {} },
          { name: 'queryOrderStatus', arguments: { orderId: '42' } },
        ]),
        onEvent: recorder.listener,
        includeContent: true,
      }),
    );
    expect(error).toBeInstanceOf(ToolExecutionError);
    const failure = error as ToolExecutionError;
    expect(failure.toolName).toBe('queryOrderStatus');
    expect(failure.cause).toBeInstanceOf(ContractViolationError);
    const cause = failure.cause as ContractViolationError;
    expect(cause).toMatchObject({ code: 'CONTRACT_VIOLATION', toolName: 'queryOrderStatus', value: drifted });
    expect(cause.issues).toContainEqual({ path: '/status', code: 'required', message: 'is required' });
    expect(cause.message).toContain('/status is required');
    expect(failure.partialResult.results.map((r) => r.type)).toEqual(['success', 'error']);
    expect(failure.partialResult.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(failure.partialResult.messages[3]?.content).toBe(
      "INTERNAL_ERROR: Tool 'queryOrderStatus' failed with an internal error; do not repeat this call.",
    );
    expect(recorder.ofType('contract-warn')).toEqual([
      expect.objectContaining({ policy: 'throw', value: drifted }),
    ]);
  });

  it('the event carries the issues but not the offending value unless content is included', async () => {
    const recorder = recordEvents();
    await createToolRuntime({ tools: [orderTool(() => drifted)] }).executeToolCalls({
      messages: [user],
      response,
      onEvent: recorder.listener,
    });
    const [event] = recorder.ofType('contract-warn');
    expect(event?.issues).toContainEqual(expect.objectContaining({ path: '/status' }));
    expect(event).not.toHaveProperty('value');
  });

  it('warn: the result passes through to the model, and the event is emitted', async () => {
    const { result, recorder } = await run(orderTool(() => drifted, { onContractViolation: 'warn' }));
    expect(result.results[0]).toMatchObject({ type: 'success', value: drifted });
    expect(result.messages[2]).toMatchObject({
      isError: false,
      content: '{"code":0,"data":{"state":"PAID"}}',
    });
    expect(recorder.ofType('contract-warn')).toEqual([
      expect.objectContaining({ policy: 'warn', value: drifted }),
    ]);
  });

  it.each([
    // [global policy, tool policy, what happens]
    [undefined, undefined, 'feedback'],
    ['warn', undefined, 'warn'],
    ['throw', undefined, 'throw'],
    ['warn', 'throw', 'throw'],
    ['throw', 'feedback', 'feedback'],
    ['feedback', 'warn', 'warn'],
  ] as const)('global %s, tool %s: %s (the tool wins)', async (global, own, expected) => {
    const tool = orderTool(() => drifted, own === undefined ? {} : { onContractViolation: own });
    const recorder = recordEvents();
    const runtime = createToolRuntime({
      tools: [tool],
      ...(global === undefined ? {} : { onContractViolation: global }),
    });
    const outcome = await runtime
      .executeToolCalls({ messages: [user], response, onEvent: recorder.listener })
      .then(
        (result) => result.results[0]?.type ?? 'none',
        (error: unknown) => (error instanceof ToolExecutionError ? 'thrown' : 'other'),
      );
    expect(outcome).toBe({ feedback: 'error', warn: 'success', throw: 'thrown' }[expected]);
    expect(recorder.ofType('contract-warn').map((e) => e.policy)).toEqual([expected]);
  });

  it('the one-off form takes the global policy too', async () => {
    const { result } = await run(
      orderTool(() => drifted),
      { onContractViolation: 'warn' },
    );
    expect(result.results[0]?.type).toBe('success');
  });

  it('rejects an unknown policy, globally and per tool, before anything runs', async () => {
    expect(() => createToolRuntime({ tools: [], onContractViolation: 'ignore' as 'warn' })).toThrow(
      InvalidOptionsError,
    );
    expect(() => orderTool(() => drifted, { onContractViolation: 'ignore' as 'warn' })).toThrow(
      ToolDefinitionError,
    );
  });
});

describe('output contracts: error results are not checked', () => {
  it.each([
    ['a tool error', () => new Error('order service said no'), 'TOOL_ERROR'],
    ['a denied call', () => new PermissionDeniedError({ message: 'no' }), 'PERMISSION_DENIED'],
    [
      'a transient failure after retries',
      () => new TransientToolError({ message: 'down' }),
      'TOOL_UNAVAILABLE',
    ],
  ] as const)(
    '%s reaches the model as itself, and the output schema never sees it',
    async (_, fail, code) => {
      const spy = spySchema(() => ({ issues: [{ message: 'never valid' }] }));
      const tool = orderTool(
        () => {
          throw fail();
        },
        { output: spy.schema },
      );
      const recorder = recordEvents();
      const result = await createToolRuntime({
        tools: [tool],
        retry: { baseDelayMs: 0, maxDelayMs: 0 },
      }).executeToolCalls({ messages: [user], response, onEvent: recorder.listener });
      expect(result.results[0]).toMatchObject({ type: 'error', code });
      expect(spy.seen).toEqual([]);
      expect(recorder.ofType('contract-warn')).toEqual([]);
    },
  );

  it('a successful result is checked exactly once, with the value the tool returned', async () => {
    const value = { status: 'SUCCESS' };
    const spy = spySchema((v) => ({ value: v }));
    const { result } = await run(orderTool(() => value, { output: spy.schema }));
    expect(result.results[0]?.type).toBe('success');
    expect(spy.seen).toHaveLength(1);
    expect(spy.seen[0]).toBe(value);
  });
});

describe('output contracts: the formatter decides the text', () => {
  const format = (value: unknown) => {
    const { status } = value as { status: string };
    return `order status: ${status}`;
  };

  it('the model sees what formatResult returns for the value', async () => {
    const { result } = await run(orderTool(() => ({ status: 'FAILED' }), { formatResult: format }));
    expect(result.messages[2]?.content).toBe('order status: FAILED');
    expect(result.results[0]).toMatchObject({
      type: 'success',
      value: { status: 'FAILED' },
      truncated: false,
    });
  });

  it('the same value always gives the same text, call after call', async () => {
    const texts = new Set<string>();
    for (let i = 0; i < 5; i++) {
      // A fresh but equal value each time, as a real service would return.
      const { result } = await run(orderTool(() => ({ status: 'SUCCESS' }), { formatResult: format }));
      texts.add(String(result.messages[2]?.content));
    }
    expect([...texts]).toEqual(['order status: SUCCESS']);
  });

  it('a long formatted text is truncated with a marker the model can read', async () => {
    const long = (value: unknown) => `${(value as { status: string }).status} ${'x'.repeat(5_000)}`;
    const { result } = await run(
      orderTool(() => ({ status: 'SUCCESS' }), { formatResult: long, maxResultChars: 200 }),
    );
    const content = String(result.messages[2]?.content);
    expect(content.length).toBeLessThanOrEqual(200);
    expect(content.startsWith('SUCCESS xxx')).toBe(true);
    expect(content).toMatch(/…\[truncated: showing \d+ of 5,008 characters\]$/);
    expect(result.results[0]).toMatchObject({ type: 'success', truncated: true });
  });

  it('is not called for a result withheld under feedback (the raw value never reaches the model)', async () => {
    const calls: unknown[] = [];
    const { result } = await run(
      orderTool(() => drifted, {
        formatResult: (value) => {
          calls.push(value);
          return JSON.stringify(value);
        },
      }),
    );
    expect(result.results[0]).toMatchObject({ type: 'error', code: 'CONTRACT_VIOLATION' });
    expect(calls).toEqual([]);
  });

  const brokenFormatters: ReadonlyArray<readonly [string, () => unknown, ErrorConstructor, string]> = [
    [
      'throws',
      () => {
        throw new RangeError('template broke');
      },
      RangeError,
      'template broke',
    ],
    ['returns a number', () => 42, TypeError, 'formatResult returned number, not a string'],
    ['returns undefined', () => undefined, TypeError, 'formatResult returned undefined, not a string'],
    ['returns an object', () => ({ text: 'x' }), TypeError, 'formatResult returned object, not a string'],
  ];
  it.each(brokenFormatters)(
    'a formatter that %s is a fatal error with the full record',
    async (_, formatter, type, message) => {
      const tool = orderTool(() => ({ status: 'SUCCESS' }), {
        formatResult: formatter as (value: unknown) => string,
      });
      const error = await thrown(
        createToolRuntime({ tools: [tool] }).executeToolCalls({ messages: [user], response }),
      );
      expect(error).toBeInstanceOf(ToolExecutionError);
      const failure = error as ToolExecutionError;
      expect(failure.cause).toBeInstanceOf(type);
      expect((failure.cause as Error).message).toBe(message);
      expect(failure.partialResult.results[0]).toMatchObject({
        type: 'error',
        code: 'INTERNAL_ERROR',
        errorClass: 'fatal',
      });
      expect(failure.partialResult.messages[2]?.content).toBe(
        "INTERNAL_ERROR: Tool 'queryOrderStatus' failed with an internal error; do not repeat this call.",
      );
    },
  );
});

describe('output contracts: asynchronous Standard Schema validators', () => {
  it('an async validator that accepts lets the result through', async () => {
    const spy = spySchema(async (value) => ({ value }));
    const { result } = await run(orderTool(() => ({ status: 'SUCCESS' }), { output: spy.schema }));
    expect(result.results[0]).toMatchObject({ type: 'success', value: { status: 'SUCCESS' } });
    expect(spy.seen).toHaveLength(1);
  });

  it('an async validator that rejects the value is a violation, with its path and problem', async () => {
    const spy = spySchema(async () => ({
      issues: [{ message: 'expected SUCCESS or FAILED', path: [{ key: 'data' }, 'state'] }],
    }));
    const { result, recorder } = await run(orderTool(() => drifted, { output: spy.schema }));
    expect(result.results[0]).toMatchObject({ type: 'error', code: 'CONTRACT_VIOLATION' });
    expect(recorder.ofType('contract-warn')[0]?.issues).toEqual([
      { path: '/data/state', code: 'schema', message: 'expected SUCCESS or FAILED' },
    ]);
  });

  it('zod with an async refinement works end to end', async () => {
    const output = statusZod.refine(async (value) => value.status === 'SUCCESS', 'the order did not succeed');
    const passed = await run(orderTool(() => ({ status: 'SUCCESS' }), { output }));
    expect(passed.result.results[0]?.type).toBe('success');
    const failed = await run(orderTool(() => ({ status: 'FAILED' }), { output }));
    expect(failed.result.results[0]).toMatchObject({ type: 'error', code: 'CONTRACT_VIOLATION' });
    expect(failed.recorder.ofType('contract-warn')[0]?.issues).toEqual([
      expect.objectContaining({ path: '', message: 'the order did not succeed' }),
    ]);
  });

  it.each([
    ['rejects', () => Promise.reject(new Error('validator backend down'))],
    [
      'throws',
      () => {
        throw new Error('validator backend down');
      },
    ],
  ])('a validator that %s is a fatal error, not a verdict on the result', async (_, answer) => {
    const spy = spySchema(answer);
    const error = await thrown(
      createToolRuntime({
        tools: [orderTool(() => ({ status: 'SUCCESS' }), { output: spy.schema })],
      }).executeToolCalls({ messages: [user], response }),
    );
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(((error as ToolExecutionError).cause as Error).message).toBe('validator backend down');
  });
});
