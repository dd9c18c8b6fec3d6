import { describe, expect, it } from 'vitest';
import { createSchemaCompiler } from './schema-compiler.js';

describe('createSchemaCompiler', () => {
  it.each([
    ['no $schema (draft-07)', undefined],
    ['draft-07', 'http://json-schema.org/draft-07/schema#'],
    ['2019-09', 'https://json-schema.org/draft/2019-09/schema'],
    ['2020-12 (what MCP servers declare)', 'https://json-schema.org/draft/2020-12/schema'],
  ])('compiles a schema declaring %s', (_name, $schema) => {
    const compiler = createSchemaCompiler();
    const validate = compiler.compile({
      ...($schema === undefined ? {} : { $schema }),
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
    });
    expect(validate({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
    expect(validate({})).toMatchObject({ ok: false, issues: [{ path: '/n', code: 'required' }] });
  });

  it('reports every problem as a JSON Pointer with a short message, never the value', () => {
    const validate = createSchemaCompiler().compile({
      type: 'object',
      properties: { kind: { enum: ['a', 'b'] }, list: { type: 'array', items: { type: 'number' } } },
      additionalProperties: false,
    });
    const outcome = validate({ kind: 'secret-value', list: [1, 'x'], extra: 1 });
    expect(outcome).toMatchObject({
      ok: false,
      issues: expect.arrayContaining([
        { path: '/kind', code: 'enum', message: 'must be one of: "a", "b"' },
        { path: '/list/1', code: 'type', message: 'must be number' },
        { path: '/extra', code: 'not-allowed', message: 'is not an allowed property' },
      ]),
    });
    expect(JSON.stringify(outcome)).not.toContain('secret-value');
  });

  it('throws on a schema that does not compile', () => {
    expect(() => createSchemaCompiler().compile({ type: 'nope' })).toThrow();
    expect(() => createSchemaCompiler().compile({ type: 'object', unknownKeyword: 1 })).toThrow(
      /unknown keyword/,
    );
  });
});
