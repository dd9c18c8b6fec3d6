import type { StandardSchemaV1 } from '@standard-schema/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type AnyTool, defineTool } from '../tools/define-tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import { codes, definition, only, statusOutput, tool } from './__fixtures__/check-helpers.js';
import { checkTools } from './check-tools.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('checkTools: tools that keep their contract', () => {
  it('passes a tool whose examples run, keep the contract and equal their outputs', async () => {
    const report = await checkTools([tool()]);
    expect(report.status).toBe('pass');
    expect(only(report)).toEqual({
      name: 'getStatus',
      status: 'pass',
      findings: [],
      examplesRun: 1,
      skippedExamples: [],
    });
    expect(report.summary).toEqual({ tools: 1, passed: 1, warned: 0, failed: 0, examplesSkipped: 0 });
  });

  it('passes the same tool given as a definition (the checker defines it)', async () => {
    expect(only(await checkTools([definition()])).status).toBe('pass');
  });

  it('runs each example with validated (parsed) input and a context, in order', async () => {
    const seen: Array<{ args: unknown; context: ToolContext }> = [];
    const parsed = defineTool({
      name: 'parsed',
      description: 'd',
      effect: 'read',
      input: z.object({ n: z.coerce.number() }),
      output: z.object({ twice: z.number() }),
      execute: (args: { n: number }, context) => {
        seen.push({ args, context });
        return { twice: args.n * 2 };
      },
      examples: [
        // The model sends text; the schema coerces it (examples are typed as the parsed arguments).
        { input: { n: '2' } as unknown as { n: number }, output: { twice: 4 } },
        { input: { n: 5 }, output: { twice: 10 } },
      ],
    });
    const check = only(await checkTools([parsed]));
    expect(check.status).toBe('pass');
    expect(check.examplesRun).toBe(2);
    expect(seen.map((s) => s.args)).toEqual([{ n: 2 }, { n: 5 }]);
    expect(seen.map((s) => s.context.toolCallId)).toEqual(['check_example_1', 'check_example_2']);
    expect(seen[0]?.context).toMatchObject({ toolName: 'parsed', attempt: 1, data: undefined });
    expect(seen[0]?.context.signal.aborted).toBe(false);
  });

  it('an example without an expected output only has to satisfy the output schema', async () => {
    const check = only(await checkTools([tool({ examples: [{ input: { id: '1' } }] })]));
    expect(check).toMatchObject({ status: 'pass', examplesRun: 1 });
  });

  it('an asynchronous Standard Schema output validator is awaited', async () => {
    const asyncStatus: StandardSchemaV1<unknown, unknown> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value) =>
          (value as { status?: unknown }).status === 'SUCCESS'
            ? { value }
            : { issues: [{ message: 'not a verdict', path: ['status'] }] },
      },
    };
    const good = only(await checkTools([tool({ output: asyncStatus })]));
    expect(good.status).not.toBe('fail');
    const bad = only(
      await checkTools([
        tool({
          output: asyncStatus,
          execute: () => ({ status: 'PAID' }),
          examples: [{ input: { id: '1' } }],
        }),
      ]),
    );
    expect(bad.findings[0]).toMatchObject({
      code: 'EXAMPLE_CONTRACT_VIOLATION',
      message:
        'the result breaks the output contract: /status: not a verdict; the result was {"status":"PAID"}',
    });
  });
});

describe('checkTools: tools that are not reads run only when asked (runWrites)', () => {
  const write = (overrides: Parameters<typeof tool>[0] = {}) =>
    tool({
      name: 'refundOrder',
      effect: 'write',
      examples: [{ name: 'paid', input: { id: '1' }, output: { status: 'SUCCESS' } }, { input: { id: '2' } }],
      ...overrides,
    });

  it("never calls a write tool's execute by default: its examples are skipped, with the reason", async () => {
    const execute = vi.fn(() => ({ status: 'SUCCESS' }));
    const report = await checkTools([write({ execute })]);
    expect(execute).not.toHaveBeenCalled();
    expect(only(report)).toEqual({
      name: 'refundOrder',
      status: 'pass',
      findings: [],
      examplesRun: 0,
      skippedExamples: ['paid', '#2'],
      skipReason: 'write tool: its examples run only with --run-writes',
    });
    expect(report.summary.examplesSkipped).toBe(2);
  });

  it('any effect but read is skipped: an effect the checker does not know is not run either', async () => {
    const execute = vi.fn(() => ({ status: 'SUCCESS' }));
    for (const effect of ['unknown', 'idempotent-write', undefined]) {
      const unusual = { ...write({ execute }), effect } as unknown as AnyTool;
      const check = only(await checkTools([unusual]));
      expect(check.skippedExamples).toHaveLength(2);
      expect(check.skipReason).toMatch(/: its examples run only with --run-writes$/);
    }
    expect(execute).not.toHaveBeenCalled();
  });

  it('a skipped example is still held to the schemas: its input, and its expected output', async () => {
    const execute = vi.fn(() => ({ status: 'SUCCESS' }));
    const check = only(
      await checkTools([
        write({
          execute,
          examples: [
            { name: 'number id', input: { id: 7 } },
            { name: 'bad verdict', input: { id: '8' }, output: { status: 'PAID' } },
            { name: 'fine', input: { id: '9' }, output: { status: 'FAILED' } },
          ],
        }),
      ]),
    );
    expect(execute).not.toHaveBeenCalled();
    expect(check.status).toBe('fail');
    expect(check.findings).toEqual([
      expect.objectContaining({ code: 'EXAMPLE_INPUT_INVALID', example: 'number id' }),
      {
        severity: 'error',
        code: 'EXAMPLE_OUTPUT_INVALID',
        example: 'bad verdict',
        message:
          'the example\'s output does not match the output schema: /status: must be one of: "SUCCESS", "FAILED"',
      },
    ]);
    expect(check.skippedExamples).toEqual(['number id', 'bad verdict', 'fine']);
  });

  it('runWrites: true runs them like a read', async () => {
    const execute = vi.fn(() => ({ status: 'SUCCESS' }));
    const check = only(await checkTools([write({ execute })], { runWrites: true }));
    expect(execute).toHaveBeenCalledTimes(2);
    expect(check).toMatchObject({ status: 'pass', examplesRun: 2, skippedExamples: [] });
    expect(check.skipReason).toBeUndefined();
  });

  it("a read tool's expected output that breaks the output schema is named as such, before it runs", async () => {
    const execute = vi.fn(() => ({ status: 'PAID' }));
    const check = only(
      await checkTools([tool({ execute, examples: [{ input: { id: '1' }, output: { status: 'PAID' } }] })]),
    );
    expect(codes(check)).toEqual(['EXAMPLE_OUTPUT_INVALID']);
    expect(execute).not.toHaveBeenCalled();
    expect(check.examplesRun).toBe(1);
  });
});

describe('checkTools: what it finds', () => {
  it('a drifted result breaks the output contract: paths, problems and the value', async () => {
    const check = only(
      await checkTools([
        tool({ execute: () => ({ code: 0, data: { state: 'PAID' } }), examples: [{ input: { id: '42' } }] }),
      ]),
    );
    expect(check.status).toBe('fail');
    expect(check.findings).toEqual([
      {
        severity: 'error',
        code: 'EXAMPLE_CONTRACT_VIOLATION',
        example: '#1',
        message:
          'the result breaks the output contract: /code: is not an allowed property; /data: is not an allowed property; /status: is required; the result was {"code":0,"data":{"state":"PAID"}}',
      },
    ]);
  });

  it.each([
    ['JSON Schema', statusOutput, '/status: must be one of: "SUCCESS", "FAILED"'],
    [
      'zod',
      z.object({ status: z.enum(['SUCCESS', 'FAILED']) }),
      '/status: Invalid option: expected one of "SUCCESS"|"FAILED"',
    ],
  ])('%s: an enumerated verdict outside the set is a violation', async (_, output, problem) => {
    const check = only(await checkTools([tool({ output, execute: () => ({ status: 'PAID' }) })]));
    expect(check.findings[0]?.code).toBe('EXAMPLE_CONTRACT_VIOLATION');
    expect(check.findings[0]?.message).toContain(problem);
  });

  it('a result that differs from the expected output names the first differing path', async () => {
    const check = only(
      await checkTools([
        tool({
          output: { type: 'object' },
          execute: () => ({ items: [{ id: 1 }, { id: 3 }] }),
          examples: [{ name: 'two items', input: { id: '1' }, output: { items: [{ id: 1 }, { id: 2 }] } }],
        }),
      ]),
    );
    expect(check.findings).toEqual([
      expect.objectContaining({
        code: 'EXAMPLE_OUTPUT_MISMATCH',
        example: 'two items',
        message: "the result differs from the example's output at /items/1/id: expected 2, got 3",
      }),
    ]);
  });

  it('an example whose input breaks the input schema fails, and the tool does not run', async () => {
    const execute = vi.fn(() => ({ status: 'SUCCESS' }));
    const check = only(await checkTools([tool({ execute, examples: [{ input: { id: 7, extra: true } }] })]));
    expect(check.findings[0]).toMatchObject({
      code: 'EXAMPLE_INPUT_INVALID',
      message:
        "the example's input does not match the input schema: /extra: is not an allowed property; /id: must be string",
    });
    expect(execute).not.toHaveBeenCalled();
  });

  it.each([
    [null, 'null'],
    [{ output: { status: 'SUCCESS' } }, 'no input'],
    ['input', 'a string'],
  ])(
    'a malformed example (%j) fails as EXAMPLE_INVALID and does not count as run',
    async (example, _kind) => {
      const check = only(await checkTools([tool({ examples: [example as never] })]));
      expect(codes(check)).toEqual(['EXAMPLE_INVALID']);
      expect(check.examplesRun).toBe(0);
    },
  );

  it.each([
    ['an Error', () => new RangeError('quota exceeded'), 'execute threw RangeError: quota exceeded'],
    ['a string', () => 'nope', 'execute threw a non-Error value: "nope"'],
    ['undefined', () => undefined, 'execute threw a non-Error value: undefined'],
    ['an object', () => ({ status: 503 }), 'execute threw a non-Error value: {"status":503}'],
    ['a symbol', () => Symbol('x'), 'execute threw a non-Error value: (unserializable:'],
  ])('an example that throws %s is reported with what was thrown', async (_, make, message) => {
    for (const execute of [
      () => {
        throw make();
      },
      () => Promise.reject(make()),
    ]) {
      const check = only(await checkTools([tool({ execute })]));
      expect(codes(check)).toEqual(['EXAMPLE_THREW']);
      expect(check.findings[0]?.message.startsWith(message)).toBe(true);
    }
  });

  it('an example that never settles times out, and its signal is aborted', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const hanging = tool({
      execute: (_args: unknown, context: ToolContext) => {
        signal = context.signal;
        return new Promise(() => {});
      },
    });
    const pending = checkTools([hanging], { timeoutMs: 50 });
    await vi.advanceTimersByTimeAsync(49);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const check = only(await pending);
    expect(check.findings[0]).toMatchObject({ code: 'EXAMPLE_TIMEOUT', example: 'ok' });
    expect(check.findings[0]?.message).toMatch(/^execute did not settle within 50 ms/);
    expect(signal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the default timeout is 5 seconds', async () => {
    vi.useFakeTimers();
    const pending = checkTools([tool({ execute: () => new Promise(() => {}) })]);
    await vi.advanceTimersByTimeAsync(4_999);
    let done = false;
    void pending.then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(codes(only(await pending))).toEqual(['EXAMPLE_TIMEOUT']);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('validator crashed');
      },
      'the output validator threw Error: validator crashed',
    ],
    [
      'rejects',
      () => Promise.reject(new Error('validator crashed')),
      'the output validator threw Error: validator crashed',
    ],
    ['answers nonsense', () => 'yes', 'the output validator returned "yes", not a validation outcome'],
  ])('an output validator that %s is VALIDATOR_FAILED', async (_, validateOutput, message) => {
    const check = only(await checkTools([{ ...tool(), validateOutput } as AnyTool]));
    expect(check.findings).toEqual([expect.objectContaining({ code: 'VALIDATOR_FAILED', message })]);
  });

  it('an input validator that never settles times out as VALIDATOR_FAILED', async () => {
    vi.useFakeTimers();
    const input = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: () => new Promise(() => {}),
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    } as unknown as StandardSchemaV1;
    const pending = checkTools([tool({ input })], { timeoutMs: 10 });
    await vi.advanceTimersByTimeAsync(10);
    expect(only(await pending).findings).toContainEqual(
      expect.objectContaining({
        code: 'VALIDATOR_FAILED',
        message: 'the input validator did not settle within 10 ms',
      }),
    );
  });

  it('a result the model could not be shown (unserializable) fails', async () => {
    const circular: Record<string, unknown> = { status: 'SUCCESS' };
    circular.self = circular;
    const check = only(
      await checkTools([
        tool({ output: { type: 'object' }, execute: () => circular, examples: [{ input: { id: '1' } }] }),
      ]),
    );
    expect(check.findings[0]?.code).toBe('RESULT_NOT_SERIALIZABLE');
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('template broke');
      },
      'FORMAT_FAILED',
      'formatResult threw Error: template broke',
    ],
    ['returns a number', () => 42, 'FORMAT_FAILED', 'formatResult returned number, not a string'],
    [
      'is not deterministic',
      (() => {
        let n = 0;
        return () => `call ${++n}`;
      })(),
      'FORMAT_NOT_DETERMINISTIC',
      'formatResult gave two different texts for the same value: "call 1" then "call 2"',
    ],
  ])('a formatter that %s fails the example', async (_, formatResult, code, message) => {
    const check = only(
      await checkTools([tool({ formatResult: formatResult as (value: unknown) => string })]),
    );
    expect(check.findings[0]).toMatchObject({ code, message });
  });

  it('a deterministic formatter passes', async () => {
    const check = only(
      await checkTools([tool({ formatResult: (v: { status: string }) => `status: ${v.status}` })]),
    );
    expect(check.status).toBe('pass');
  });
});
