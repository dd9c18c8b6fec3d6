import { describe, expect, it, vi } from 'vitest';
import { ToolDefinitionError } from '../core/errors/tool-definition-error.js';
import { createSchemaCompiler, defaultSchemaCompiler } from '../schema/schema-compiler.js';
import { defineTool } from './define-tool.js';
import { createToolRegistry } from './tool-registry.js';

const base = { description: 'Does a thing.', effect: 'read' as const, execute: () => 1 };

describe('defineTool', () => {
  it('returns a frozen tool with its JSON Schema for providers', () => {
    const input = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const tool = defineTool({ ...base, name: 'search_web-2', input });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(tool.inputJsonSchema).toBe(input);
    expect(tool.validateInput({ q: 'x' })).toEqual({ ok: true, value: { q: 'x' } });
  });

  it('converts a zod schema to JSON Schema for providers', async () => {
    const { z } = await import('zod');
    const tool = defineTool({ ...base, name: 'z', input: z.object({ city: z.string() }) });
    expect(tool.inputJsonSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
  });

  it.each([
    ['', /must not be empty/],
    ['get.weather', /only letters, digits.*"get_weather"/],
    ['a'.repeat(65), /at most 64 characters/],
    ['tab\tname', /only letters/],
    ['ünïcode', /only letters/],
  ])('refuses the name %j with a message that says how to fix it', (name, message) => {
    expect(() => defineTool({ ...base, name })).toThrow(ToolDefinitionError);
    expect(() => defineTool({ ...base, name })).toThrow(message);
  });

  it('shows a hostile name escaped and shortened in the error', () => {
    const error = (() => {
      try {
        defineTool({ ...base, name: `\u0000${'x'.repeat(10_000)}` });
      } catch (e) {
        return e as ToolDefinitionError;
      }
      return undefined;
    })();
    expect(error?.message.length).toBeLessThan(400);
    expect(error?.message).not.toContain('\u0000');
  });

  it.each([
    ['no description', { description: '  ' }, /a description is required/],
    ['a bad effect', { effect: 'delete' }, /effect must be 'read', 'write', 'idempotent-write' or 'unknown'/],
    ['no execute', { execute: 'run' }, /execute must be a function/],
    ['a bad timeout', { timeoutMs: 0 }, /timeoutMs must be an integer between 1 and 2147483647, got 0\./],
    ['bad retries', { retries: -1 }, /retries must be an integer >= 0, got -1\./],
    [
      'an input that is not a schema',
      { input: 'string' },
      /input must be a JSON Schema object or a Standard Schema/,
    ],
    [
      'a schema that does not compile',
      { input: { type: 'object', properties: { a: { type: 'strin' } } } },
      /does not compile/,
    ],
    ['an unknown keyword', { input: { type: 'object', propertees: {} } }, /does not compile.*propertees/],
    ['a decide that is not a function', { decide: true }, /decide must be a function\./],
    ['an authorize (now decide)', { authorize: () => true }, /authorize is now decide\(call, context\)/],
    [
      'a needsApproval that is neither a flag nor a function',
      { needsApproval: 'yes' },
      /needsApproval must be true, false or a function, got "yes"\./,
    ],
  ])('refuses %s', (_name, patch, message) => {
    expect(() => defineTool({ ...base, name: 't', ...(patch as object) } as never)).toThrow(message);
  });

  it.each([
    ['timeoutMs', 3_000_000_000, 'timeoutMs must be an integer between 1 and 2147483647, got 3000000000.'],
    [
      'timeoutMs',
      Number.POSITIVE_INFINITY,
      'timeoutMs must be an integer between 1 and 2147483647, got Infinity.',
    ],
    ['timeoutMs', '5000', 'timeoutMs must be an integer between 1 and 2147483647, got "5000".'],
    ['retries', Number.NaN, 'retries must be an integer >= 0, got NaN.'],
    ['retries', 2n, 'retries must be an integer >= 0, got 2n.'],
    ['maxCallsPerTurn', 1.5, 'maxCallsPerTurn must be an integer >= 0, got 1.5.'],
    ['maxCallsPerTurn', { valueOf: () => 3 }, 'maxCallsPerTurn must be an integer >= 0, got an object.'],
    ['maxResultChars', 63, 'maxResultChars must be an integer >= 64, got 63.'],
    ['maxResultChars', Object(100), 'maxResultChars must be an integer >= 64, got an object.'],
  ])('refuses %s = %p through the one option rule', (option, value, message) => {
    expect(() => defineTool({ ...base, name: 't', [option]: value } as never)).toThrow(
      new ToolDefinitionError({ toolName: 't', message: `Tool "t": ${message}` }),
    );
  });

  it('keeps its decision and its approval rule (a flag, or a function of its arguments)', () => {
    const decide = () => ({ type: 'run' }) as const;
    const needsApproval = ({ amount }: { amount: number }) => amount > 100;
    const tool = defineTool({ ...base, name: 't', decide, needsApproval });
    expect(tool.decide).toBe(decide);
    expect(tool.needsApproval).toBe(needsApproval);
    expect(defineTool({ ...base, name: 'u', needsApproval: true }).needsApproval).toBe(true);
    expect(defineTool({ ...base, name: 'v' })).toMatchObject({
      decide: undefined,
      needsApproval: undefined,
    });
  });

  it('keeps numeric settings that obey the rule, the longest timer included', () => {
    const tool = defineTool({
      ...base,
      name: 't',
      timeoutMs: 2_147_483_647,
      retries: 0,
      maxCallsPerTurn: 0,
      maxResultChars: 64,
    });
    expect(tool).toMatchObject({
      timeoutMs: 2_147_483_647,
      retries: 0,
      maxCallsPerTurn: 0,
      maxResultChars: 64,
    });
  });

  it('refuses a missing options object', () => {
    expect(() => defineTool(undefined as never)).toThrow(ToolDefinitionError);
  });

  it('accepts common formats and a shared compiler', () => {
    const compiler = createSchemaCompiler();
    const input = { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } };
    const a = defineTool({ ...base, name: 'a', input, schemaCompiler: compiler });
    expect(a.validateInput({ at: 'yesterday' })).toMatchObject({
      ok: false,
      issues: [{ path: '/at', code: 'format' }],
    });
    expect(a.validateInput({ at: '2026-11-30T10:00:00Z' })).toMatchObject({ ok: true });
  });
});

describe('defineTool: schemas people really write', () => {
  it('accepts annotations in the input and output schemas (example, x-*, deprecated, ...)', () => {
    const tool = defineTool({
      ...base,
      name: 'annotated',
      input: {
        type: 'object',
        'x-internal': false,
        properties: { city: { type: 'string', example: 'Paris', deprecated: true, 'x-order': 1 } },
        required: ['city'],
      },
      output: { type: 'number', examples: [1], $comment: 'a count', 'x-unit': 'items' },
    });
    expect(tool.validateInput({ city: 'Paris' })).toMatchObject({ ok: true });
    expect(tool.validateOutput?.(1)).toMatchObject({ ok: true });
    expect(() => defineTool({ ...base, name: 't', output: { type: 'number', maximun: 3 } })).toThrow(
      /its output schema does not compile: .*"maximun"/,
    );
  });

  it('defines 50 tools with one shared compiler unless given one', () => {
    const shared = defaultSchemaCompiler();
    const compile = vi.spyOn(shared, 'compile');
    try {
      const tools = Array.from({ length: 50 }, (_, i) =>
        defineTool({
          ...base,
          name: `tool_${i}`,
          input: { type: 'object', properties: { n: { type: 'integer', minimum: i } } },
        }),
      );
      expect(compile).toHaveBeenCalledTimes(50);
      expect(tools[49]?.validateInput({ n: 49 })).toMatchObject({ ok: true });
      expect(tools[49]?.validateInput({ n: 48 })).toMatchObject({ ok: false });
      const own = createSchemaCompiler();
      const ownCompile = vi.spyOn(own, 'compile');
      defineTool({ ...base, name: 'own', input: { type: 'object' }, schemaCompiler: own });
      expect(ownCompile).toHaveBeenCalledTimes(1);
      expect(compile).toHaveBeenCalledTimes(50);
    } finally {
      compile.mockRestore();
    }
  });

  it('keeps two tools whose schemas share an $id apart', () => {
    const $id = 'https://example.com/schemas/args.json';
    const requiring = (key: string) => ({ $id, type: 'object', properties: { [key]: {} }, required: [key] });
    const a = defineTool({ ...base, name: 'a', input: requiring('a') });
    const b = defineTool({ ...base, name: 'b', input: requiring('b') });
    expect(a.validateInput({ a: 1 })).toMatchObject({ ok: true });
    expect(a.validateInput({ b: 1 })).toMatchObject({ ok: false });
    expect(b.validateInput({ b: 1 })).toMatchObject({ ok: true });
    expect(b.validateInput({ a: 1 })).toMatchObject({ ok: false });
  });

  it('refuses a valibot schema without its converter, naming the package to install', async () => {
    const v = await import('valibot');
    const input = v.object({ city: v.string() });
    expect(() => defineTool({ ...base, name: 'v', input })).toThrow(ToolDefinitionError);
    expect(() => defineTool({ ...base, name: 'v', input })).toThrow(
      /Tool "v": its input cannot be shown to a model: .*"valibot".*install @valibot\/to-json-schema and pass toStandardJsonSchema\(schema\)/,
    );
    const { toStandardJsonSchema } = await import('@valibot/to-json-schema');
    const tool = defineTool({ ...base, name: 'v', input: toStandardJsonSchema(input) });
    expect(tool.inputJsonSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } });
    expect(await tool.validateInput({ city: 3 })).toMatchObject({ ok: false });
  });

  it('refuses a Standard Schema whose converter fails, with its reason', async () => {
    const { z } = await import('zod');
    expect(() => defineTool({ ...base, name: 'z', input: z.object({ at: z.date() }) })).toThrow(
      /its input cannot be shown to a model: its "zod" schema cannot be converted to JSON Schema: /,
    );
    const opaque = { '~standard': { version: 1, vendor: 'acme', validate: (value: unknown) => ({ value }) } };
    expect(() => defineTool({ ...base, name: 'o', input: opaque as never })).toThrow(
      /"acme" Standard Schema without a JSON Schema converter .*or pass a JSON Schema/,
    );
    const hostile = {
      '~standard': {
        version: 1,
        vendor: 'acme',
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input() {
            throw new Proxy(new Error('x'), {
              get() {
                throw new Error('trap');
              },
            });
          },
        },
      },
    };
    expect(() => defineTool({ ...base, name: 'h', input: hostile as never })).toThrow(ToolDefinitionError);
  });
});

describe('createToolRegistry', () => {
  it('reports the names in registration order and finds tools by name', () => {
    const registry = createToolRegistry([
      defineTool({ ...base, name: 'b' }),
      defineTool({ ...base, name: 'a' }),
    ]);
    expect(registry.names()).toEqual(['b', 'a']);
    expect(registry.get('a')?.name).toBe('a');
    expect(registry.get('__proto__')).toBeUndefined();
    expect(registry.get('constructor')).toBeUndefined();
  });

  it('refuses duplicate names at definition time', () => {
    expect(() =>
      createToolRegistry([defineTool({ ...base, name: 'x' }), defineTool({ ...base, name: 'x' })]),
    ).toThrow(/registered twice/);
  });

  it('refuses things that are not tools', () => {
    expect(() => createToolRegistry([{} as never])).toThrow(/tools made by defineTool/);
  });
});
