import { describe, expect, it } from 'vitest';
import { ANNOTATION_KEYWORDS } from './annotation-keywords.js';
import { createSchemaCompiler, defaultSchemaCompiler } from './schema-compiler.js';

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

  const DIALECTS = [
    undefined,
    'http://json-schema.org/draft-07/schema#',
    'https://json-schema.org/draft/2019-09/schema',
    'https://json-schema.org/draft/2020-12/schema',
  ];

  it.each(DIALECTS)(
    'accepts the annotations people write (dialect %s), and they constrain nothing',
    ($schema) => {
      const schema = {
        ...($schema === undefined ? {} : { $schema }),
        type: 'object',
        title: 'Search',
        $comment: 'generated',
        'x-internal': true,
        'x-speakeasy-name-override': 'search',
        example: { q: 'shoes' },
        examples: [{ q: 'shoes' }],
        externalDocs: { url: 'https://example.com/docs' },
        properties: {
          q: {
            type: 'string',
            description: 'The query',
            example: 'shoes',
            deprecated: false,
            readOnly: false,
            writeOnly: false,
            'x-order': 1,
            'x-nested': { propertees: 'not a schema: an annotation value' },
          },
          n: { type: 'integer', nullable: true, default: 3, xml: { name: 'n' } },
          kind: {
            oneOf: [
              { type: 'object', properties: { k: { const: 'a' } } },
              { type: 'object', properties: { k: { const: 'b' } } },
            ],
            discriminator: { propertyName: 'k' },
          },
        },
        required: ['q'],
      };
      const validate = createSchemaCompiler().compile(schema);
      expect(validate({ q: 'x', n: null })).toMatchObject({ ok: true });
      expect(validate({ q: 1 })).toMatchObject({ ok: false, issues: [{ path: '/q', code: 'type' }] });
    },
  );

  it.each([
    ['a misspelled keyword', { type: 'object', propertees: {} }, /unknown keyword: "propertees"/],
    ['a misspelled nested keyword', { properties: { a: { type: 'string', minLenght: 1 } } }, /"minLenght"/],
    ['a keyword that only looks like an extension', { type: 'object', x_internal: true }, /"x_internal"/],
    ['an unknown format', { type: 'string', format: 'emial' }, /unknown format "emial"/],
    ['a strict-mode mistake other than a keyword', { if: { type: 'string' } }, /"if" without "then"/],
    ['nullable without type', { nullable: true }, /"nullable" cannot be used without "type"/],
  ])('still refuses %s', (_name, schema, message) => {
    const compiler = createSchemaCompiler();
    expect(() => compiler.compile(schema)).toThrow(message);
    // Refused again: nothing of the failed compile was kept to make it pass the second time.
    expect(() => compiler.compile(schema)).toThrow(message);
  });

  it('names the annotations it accepts beyond what Ajv knows', () => {
    expect([...ANNOTATION_KEYWORDS].sort()).toEqual(['discriminator', 'example', 'externalDocs', 'xml']);
  });

  it('keeps schemas with the same $id apart: each validates by its own', () => {
    const compiler = createSchemaCompiler();
    const id = 'https://example.com/args.json';
    const a = compiler.compile({ $id: id, type: 'object', properties: { n: { type: 'integer' } } });
    const b = compiler.compile({ $id: id, type: 'object', properties: { n: { type: 'string' } } });
    expect(a({ n: 1 }).ok).toBe(true);
    expect(a({ n: 'x' }).ok).toBe(false);
    expect(b({ n: 'x' }).ok).toBe(true);
    expect(b({ n: 1 }).ok).toBe(false);
  });

  it("keeps nested $ids apart, resolves a schema's own $refs, and never another schema's", () => {
    const compiler = createSchemaCompiler();
    const withNested = (type: string) => ({
      $id: 'https://example.com/root.json',
      type: 'object',
      definitions: { item: { $id: 'https://example.com/item.json', type } },
      properties: { item: { $ref: 'https://example.com/item.json' } },
    });
    const a = compiler.compile(withNested('integer'));
    const b = compiler.compile(withNested('string'));
    expect([a({ item: 1 }).ok, a({ item: 'x' }).ok, b({ item: 'x' }).ok, b({ item: 1 }).ok]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(() =>
      compiler.compile({ type: 'object', properties: { item: { $ref: 'https://example.com/item.json' } } }),
    ).toThrow(/can't resolve reference/);
  });

  it("cannot be broken by a schema that claims the meta-schema's $id", () => {
    const compiler = createSchemaCompiler();
    const claimed = { $id: 'http://json-schema.org/draft-07/schema#', type: 'object' };
    try {
      compiler.compile(claimed);
    } catch {
      // Refused or accepted: either way the next schema compiles as before.
    }
    expect(compiler.compile({ type: 'object', properties: { n: { type: 'integer' } } })({ n: 1 }).ok).toBe(
      true,
    );
  });

  it('compiles correctly past the point where it replaces its Ajv instance', () => {
    const compiler = createSchemaCompiler();
    for (let i = 0; i < 250; i++) {
      const validate = compiler.compile({
        $id: 'https://example.com/same.json',
        type: 'integer',
        minimum: i,
      });
      expect(validate(i).ok).toBe(true);
      expect(validate(i - 1).ok).toBe(false);
    }
  });

  it('refuses hostile schemas with an error, not a crash', () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    const compiler = createSchemaCompiler();
    expect(() => compiler.compile(trap)).toThrow();
    expect(() => compiler.compile({ $id: 5, type: 'object' } as never)).toThrow();
    expect(compiler.compile({ type: 'object' })({}).ok).toBe(true);
  });
});

describe('defaultSchemaCompiler', () => {
  it('is one compiler, made on first use', () => {
    expect(defaultSchemaCompiler()).toBe(defaultSchemaCompiler());
  });
});
