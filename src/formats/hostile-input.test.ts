import { describe, expect, it } from 'vitest';
import { MAX_SCHEMA_DEPTH } from '../core/defaults.js';
import { ToolwardenError } from '../core/errors/toolwarden-error.js';
import { defineTool } from '../tools/define-tool.js';
import { fromAnthropicTool, fromAnthropicTools } from './from-anthropic-tool.js';
import { fromMcpTool, fromMcpTools } from './from-mcp-tool.js';
import { fromOpenAiTool, fromOpenAiTools } from './from-openai-tool.js';
import { toAnthropicTool } from './to-anthropic-tool.js';
import { toMcpTool } from './to-mcp-tool.js';
import { toOpenAiTool } from './to-openai-tool.js';

/** Each format: how to wrap a name and a schema, and its importers. */
const FORMATS = {
  openai: {
    wrap: (fields: Record<string, unknown>) => ({
      type: 'function',
      function: {
        name: fields.name,
        description: 'd',
        parameters: fields.schema,
        ...(fields.extra as object),
      },
    }),
    one: fromOpenAiTool,
    many: fromOpenAiTools,
  },
  anthropic: {
    wrap: (fields: Record<string, unknown>) => ({
      name: fields.name,
      description: 'd',
      input_schema: fields.schema,
      ...(fields.extra as object),
    }),
    one: fromAnthropicTool,
    many: fromAnthropicTools,
  },
  mcp: {
    wrap: (fields: Record<string, unknown>) => ({
      name: fields.name,
      description: 'd',
      inputSchema: fields.schema,
      ...(fields.extra as object),
    }),
    one: fromMcpTool,
    many: fromMcpTools,
  },
} as const;

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}
const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
(cyclic.properties as Record<string, unknown>).self = cyclic;
const ok = { type: 'object', properties: { q: { type: 'string' } } };

/** Runs `action`, and checks it threw a toolwarden error with a stable code and a short, clean message. */
function expectClearError(action: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(ToolwardenError.isInstance(thrown), String(thrown)).toBe(true);
  const error = thrown as ToolwardenError;
  expect(error.code).toMatch(/^[A-Z_]+$/);
  expect(error.message).toMatch(message);
  expect(error.message.length).toBeLessThan(400);
  expect([...error.message].some((char) => char.charCodeAt(0) < 9)).toBe(false);
}

describe.each(Object.entries(FORMATS))('hostile %s definitions', (_format, { wrap, one, many }) => {
  const execute = () => 1;
  const cases: [string, unknown, RegExp][] = [
    ['null', null, /must be an object, got null/],
    ['a number', 42, /must be an object, got a number/],
    ['an array', [], /must be an object, got an array/],
    ['a missing name', wrap({ schema: ok }), /a name is required/],
    ['a numeric name', wrap({ name: 7, schema: ok }), /must be a string, got number/],
    ['an empty name', wrap({ name: '', schema: ok }), /must not be empty/],
    [
      'a 10,000-character name',
      wrap({ name: 'n'.repeat(10_000), schema: ok }),
      /has 10000 characters; at most 256/,
    ],
    [
      'a string as schema',
      wrap({ name: 't', schema: 'object' }),
      /must be a JSON Schema object, got a string/,
    ],
    ['an array as schema', wrap({ name: 't', schema: [] }), /must be a JSON Schema object, got an array/],
    ['a schema of another type', wrap({ name: 't', schema: { type: 'string' } }), /must describe an object/],
    [
      'a __proto__ property',
      wrap({
        name: 't',
        schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
      }),
      /properties\.__proto__\): the key "__proto__" is not allowed/,
    ],
    [
      '10,000 levels of nesting',
      wrap({ name: 't', schema: nested(10_000) }),
      /nested deeper than 128 levels/,
    ],
    ['a cycle', wrap({ name: 't', schema: cyclic }), /nested deeper than/],
    [
      'a bigint',
      wrap({ name: 't', schema: { type: 'object', maxProperties: 10n } }),
      /holds a bigint, which is not JSON/,
    ],
    [
      'a schema that does not compile',
      wrap({ name: 't', schema: { type: 'object', properties: { a: { type: 'strin' } } } }),
      /does not compile/,
    ],
    [
      'a non-string description',
      wrap({ name: 't', schema: ok, extra: { description: 5 } }),
      /description must be a string/,
    ],
  ];
  it.each(cases)('refuses %s with a clear error', (_label, definition, message) => {
    expectClearError(() => one(definition, { execute }), message);
    expectClearError(() => many([definition], { handler: execute }), message);
  });

  it('accepts the deepest allowed nesting, and a property named constructor', () => {
    expect(one(wrap({ name: 't', schema: nested(MAX_SCHEMA_DEPTH / 2 - 1) }), { execute }).name).toBe('t');
    const withConstructor = one(
      wrap({ name: 't', schema: { type: 'object', properties: { constructor: { type: 'string' } } } }),
      { execute },
    );
    expect(withConstructor.validateInput({ constructor: 'x' })).toMatchObject({ ok: true });
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it.each([
    ['no options', undefined, /options\.execute/],
    ['no execute', {}, /options\.execute/],
    ['an execute that is not a function', { execute: 'run' }, /options\.execute/],
  ])('refuses %s', (_label, options, message) => {
    expectClearError(() => one(wrap({ name: 't', schema: ok }), options as never), message);
  });

  it('refuses a list that is not an array, and a list handler that is not a function', () => {
    expectClearError(
      () => many('tools' as never, { handler: execute }),
      /expected an array of tool definitions, got a string/,
    );
    expectClearError(() => many([wrap({ name: 't', schema: ok })], {} as never), /options\.handler/);
  });
});

describe('hostile exports', () => {
  const tool = defineTool({ name: 't', description: 'd', effect: 'read', execute: () => 1 });
  // defineTool refuses a Standard Schema without a converter; a tool forged without a schema still is refused.
  const opaque = { ...tool, inputJsonSchema: undefined } as unknown as typeof tool;
  it.each([
    ['toOpenAiTool(null)', () => toOpenAiTool(null as never), /only tools made by defineTool/],
    ['toAnthropicTool({})', () => toAnthropicTool({} as never), /only tools made by defineTool/],
    ['toMcpTool("t")', () => toMcpTool('t' as never), /only tools made by defineTool/],
    [
      'tools.map(toOpenAiTool)',
      () => [tool].map(toOpenAiTool as never),
      /options must be an object, got a number/,
    ],
    ['a nameMap that is not one', () => toMcpTool(tool, { nameMap: {} as never }), /nameMap must be a map/],
    [
      'annotations that are a string',
      () => toMcpTool(tool, { annotations: 'x' as never }),
      /annotations must be an object/,
    ],
    ['a Standard Schema without JSON Schema', () => toOpenAiTool(opaque), /no JSON Schema form/],
  ])('refuses %s with a clear error', (_label, action, message) => {
    expectClearError(action, message);
  });

  it('refuses MCP annotations of the wrong shape on import', () => {
    expectClearError(
      () => fromMcpTool({ name: 't', inputSchema: ok, annotations: [] }, { execute: () => 1 }),
      /annotations must be an object/,
    );
    expectClearError(
      () =>
        fromMcpTool(
          { name: 't', inputSchema: ok, annotations: { readOnlyHint: 'yes' } },
          { execute: () => 1 },
        ),
      /readOnlyHint must be true or false/,
    );
  });

  it('refuses an OpenAI tool of another type, without a function, or with a bad strict', () => {
    expectClearError(
      () => fromOpenAiTool({ type: 'web_search' }, { execute: () => 1 }),
      /only function tools.*"web_search"/,
    );
    expectClearError(
      () => fromOpenAiTool({ type: 'function' }, { execute: () => 1 }),
      /a function object is required/,
    );
    expectClearError(
      () =>
        fromOpenAiTool({ type: 'function', function: { name: 't', strict: 'yes' } }, { execute: () => 1 }),
      /strict must be true or false/,
    );
  });
});
