import { describe, expect, it } from 'vitest';
import { ToolwardenError } from '../core/errors/toolwarden-error.js';
import { fromBfclFunction, fromBfclFunctions } from './from-bfcl-function.js';
import { normalizeBfclSchema } from './normalize-bfcl-schema.js';

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'dict', properties: { a: schema } };
  return schema;
}
const cyclic: Record<string, unknown> = { type: 'dict', properties: {} };
(cyclic.properties as Record<string, unknown>).self = cyclic;
const fn = (fields: object) => ({
  name: 't',
  description: 'd',
  parameters: { type: 'dict', properties: {} },
  ...fields,
});

/** Checks that `action` threw a toolwarden error with a stable code and a short, clean message. */
function expectClearError(action: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(ToolwardenError.isInstance(thrown), String(thrown)).toBe(true);
  expect((thrown as ToolwardenError).code).toBe('TOOL_FORMAT_INVALID');
  expect((thrown as Error).message).toMatch(message);
  expect((thrown as Error).message.length).toBeLessThan(400);
}

describe('hostile BFCL functions', () => {
  const execute = () => 1;
  it.each([
    ['null', null, /BFCL tool( \(\[0\]\))?: a tool definition must be an object, got null/],
    ['a string', 'calculate_triangle_area', /must be an object, got a string/],
    ['a missing name', fn({ name: undefined }), /\((\[0\]\.)?name\): a name is required/],
    ['a 10,000-character name', fn({ name: 'n'.repeat(10_000) }), /has 10000 characters/],
    [
      'string parameters',
      fn({ parameters: 'dict' }),
      /\((\[0\]\.)?parameters\): parameters must be an object, got a string/,
    ],
    ['array parameters', fn({ parameters: [] }), /parameters must be an object, got an array/],
    ['a string response', fn({ response: 'dict' }), /\((\[0\]\.)?response\): response must be an object/],
    [
      'a __proto__ property',
      fn({ parameters: JSON.parse('{"type":"dict","properties":{"__proto__":{"type":"string"}}}') }),
      /\((\[0\]\.)?parameters\.properties\.__proto__\): the key "__proto__" is not allowed/,
    ],
    ['10,000 levels of nesting', fn({ parameters: nested(10_000) }), /nested deeper than 128 levels/],
    ['a cycle', fn({ parameters: cyclic }), /nested deeper than 128 levels \(or contains a cycle\)/],
    [
      'a bigint default',
      fn({ parameters: { type: 'dict', properties: { n: { type: 'long', default: 1n } } } }),
      /bigint/,
    ],
    ['a numeric description', fn({ description: 42 }), /description must be a string/],
  ])('refuses %s with a clear error', (_label, definition, message) => {
    expectClearError(() => fromBfclFunction(definition, { execute }), message);
    expectClearError(() => fromBfclFunctions([definition], { handler: execute }), message);
  });

  it('refuses a language it does not know, missing options and a list that is not one', () => {
    expectClearError(
      () => fromBfclFunction(fn({}), { execute, language: 'cobol' as never }),
      /language must be/,
    );
    expectClearError(() => fromBfclFunction(fn({}), null as never), /options\.execute/);
    expectClearError(() => fromBfclFunctions({} as never, { handler: execute }), /expected an array/);
    expectClearError(
      () => fromBfclFunctions([fn({}), fn({})], { handler: execute }),
      /two tools have this name/,
    );
  });

  it('refuses hostile schemas given to normalizeBfclSchema directly', () => {
    expectClearError(() => normalizeBfclSchema(nested(10_000), { role: 'response' }), /nested deeper/);
    expectClearError(() => normalizeBfclSchema(cyclic, { role: 'parameters' }), /nested deeper/);
  });

  it('reads the strangest names and schemas the README lists without refusing them', () => {
    const tool = fromBfclFunction(
      fn({
        name: 'website_configuration_api.WebsiteConfigurationApi.rename_website',
        parameters: {
          type: 'dict',
          properties: {
            'Content-Type': { type: 'string', optional: 'True' },
            año_vehiculo: { type: 'integer', default: '5 years' },
            issuer: { type: '' },
          },
          required: ['Content-Type', 'año_vehiculo'],
          optional: [],
        },
      }),
      { execute },
    );
    expect(tool.name).toBe('website_configuration_api_WebsiteConfigurationApi_rename_website');
    expect(tool.validateInput({ año_vehiculo: 2020 })).toMatchObject({ ok: true });
    expect(tool.validateInput({ 'Content-Type': 1, año_vehiculo: 2020 })).toMatchObject({
      ok: false,
      issues: [{ path: '/Content-Type' }],
    });
  });
});
