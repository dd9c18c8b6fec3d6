import { describe, expect, it } from 'vitest';
import { createSchemaCompiler } from '../schema/schema-compiler.js';
import { normalizeBfclSchema } from './normalize-bfcl-schema.js';

const compiler = createSchemaCompiler();

/** Normalizes BFCL `parameters`, checks that Ajv compiles the result, and returns it with its notes. */
function normalize(parameters: unknown, language?: 'python' | 'java' | 'javascript') {
  const result = normalizeBfclSchema(parameters, { role: 'parameters', ...(language ? { language } : {}) });
  const validate = compiler.compile(result.schema);
  return {
    ...result,
    rules: result.notes.map((note) => note.rule),
    valid: (value: unknown) => validate(value).ok,
  };
}
const params = (properties: object, extra: object = {}) => ({ type: 'dict', properties, ...extra });

describe('normalizeBfclSchema', () => {
  it('1. maps BFCL, Python, Java and JavaScript type names to JSON Schema types', () => {
    const names = [
      'dict',
      'HashMap',
      'float',
      'double',
      'long',
      'String',
      'char',
      'bool',
      'Boolean',
      'list',
      'ArrayList',
      'Array',
    ];
    const { schema, rules } = normalize(
      params(Object.fromEntries(names.map((name) => [name, { type: name }]))),
    );
    expect(schema.properties).toEqual({
      dict: { type: 'object' },
      HashMap: { type: 'object' },
      float: { type: 'number' },
      double: { type: 'number' },
      long: { type: 'integer' },
      String: { type: 'string' },
      char: { type: 'string' },
      bool: { type: 'boolean' },
      Boolean: { type: 'boolean' },
      list: { type: 'array' },
      ArrayList: { type: 'array' },
      Array: { type: 'array' },
    });
    expect(rules).toEqual(Array(names.length).fill('type-name'));
  });

  it('2. lets any, Any, the empty type and unknown names accept any value', () => {
    const { schema, rules, valid } = normalize(
      params({ a: { type: 'any' }, b: { type: '' }, c: { type: 'Widget' } }),
    );
    expect(schema.properties).toEqual({ a: {}, b: {}, c: {} });
    expect(rules).toEqual(['any-type', 'any-type', 'unknown-type']);
    expect(valid({ a: 1, b: true, c: [null] })).toBe(true);
  });

  it('3. reads a tuple as an array of its items, and keeps a list of items schemas', () => {
    const { schema, valid } = normalize(
      params({
        coord: { type: 'tuple', items: { type: 'float' } },
        pair: { type: 'array', items: [{ type: 'float' }, { type: 'string' }] },
      }),
    );
    expect(schema.properties).toMatchObject({ coord: { type: 'array', items: { type: 'number' } } });
    expect(valid({ coord: [48.8584, 2.2945, 3], pair: [1.5, 'x'] })).toBe(true);
    expect(valid({ pair: ['x', 1.5] })).toBe(false);
  });

  it('4. moves an enum on an array to its items', () => {
    const { schema, valid } = normalize(
      params({ m: { type: 'array', items: { type: 'string' }, enum: ['a', 'b'] } }),
    );
    expect(schema.properties).toEqual({ m: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } });
    expect(valid({ m: ['a', 'b', 'a'] })).toBe(true);
    expect(valid({ m: ['c'] })).toBe(false);
  });

  it('5. lets an enum whose values are not of the declared type decide alone, without repeats', () => {
    const { schema, rules, valid } = normalize(
      params({
        adults: { type: 'integer', enum: ['1', '2', 'dontcare', '2'] },
        ok: { type: 'boolean', enum: ['True', 'False'] },
      }),
    );
    expect(schema.properties).toEqual({
      adults: { enum: ['1', '2', 'dontcare'] },
      ok: { enum: ['True', 'False'] },
    });
    expect(rules).toEqual(['enum-type', 'enum-type', 'enum-type']);
    expect(valid({ adults: 'dontcare', ok: 'True' })).toBe(true);
    expect(valid({ adults: 1 })).toBe(false);
  });

  it('6. accepts null where the default is null', () => {
    const { schema, valid } = normalize(
      params({
        color: { type: 'string', default: null },
        size: { type: 'string', enum: ['S', 'M'], default: null },
        any: { default: null },
      }),
    );
    expect(schema.properties).toEqual({
      color: { type: ['string', 'null'], default: null },
      size: { type: ['string', 'null'], enum: ['S', 'M', null], default: null },
      any: { default: null },
    });
    expect(valid({ color: null, size: null, any: null })).toBe(true);
    expect(valid({ color: 'red', size: 'S' })).toBe(true);
    expect(valid({ size: 'L' })).toBe(false);
  });

  it('6 and 7. never leave a parameter refusing its own default: null is accepted, the rest is dropped', () => {
    const { schema, notes, valid } = normalize(
      params({
        level: { type: 'string', enum: ['bronze', 'gold'], default: 'all levels' },
        tier: { type: 'string', enum: ['bronze', 'gold'], default: null },
        count: { type: 'integer', default: 'five' },
        kept: { type: 'string', enum: ['bronze', 'gold'], default: 'gold' },
      }),
    );
    expect(schema.properties).toEqual({
      level: { type: 'string', enum: ['bronze', 'gold'] },
      tier: { type: ['string', 'null'], enum: ['bronze', 'gold', null], default: null },
      count: { type: 'integer' },
      kept: { type: 'string', enum: ['bronze', 'gold'], default: 'gold' },
    });
    expect(notes).toEqual([
      {
        path: 'properties.level',
        rule: 'dropped-default',
        detail: 'default "all levels" is not one of the enum values: dropped',
      },
      { path: 'properties.tier', rule: 'nullable-default', detail: 'default null: null is accepted' },
      {
        path: 'properties.count',
        rule: 'dropped-default',
        detail: 'default "five" is not of type integer: dropped',
      },
    ]);
    expect(valid({ level: 'gold', tier: null, count: 5, kept: 'gold' })).toBe(true);
    expect(valid({ level: 'all levels' })).toBe(false);
    expect(valid({ count: 'five' })).toBe(false);
  });

  it('7. drops defaults of the wrong type or outside the enum, and keeps the others', () => {
    const { schema, rules } = normalize(
      params({
        flag: { type: 'boolean', default: 'false' },
        extra: { type: 'dict', default: 'None' },
        tags: { type: 'array', items: { type: 'string', default: ['a'] } },
        color: { type: 'string', enum: ['red'], default: 'any' },
        n: { type: 'integer', default: 3 },
      }),
    );
    expect(schema.properties).toEqual({
      flag: { type: 'boolean' },
      extra: { type: 'object' },
      tags: { type: 'array', items: { type: 'string' } },
      color: { type: 'string', enum: ['red'] },
      n: { type: 'integer', default: 3 },
    });
    expect(rules.filter((rule) => rule === 'dropped-default')).toHaveLength(4);
  });

  it('8. reads the non-standard optional key on properties and as a list on the object', () => {
    const { schema } = normalize(
      params(
        {
          a: { type: 'string', optional: true },
          b: { type: 'string', optional: 'yes' },
          c: { type: 'string', optional: 'no' },
          w: { type: 'float' },
        },
        { required: ['a', 'b', 'c', 'w'], optional: ['w'] },
      ),
    );
    expect(schema.required).toEqual(['c']);
    expect(JSON.stringify(schema)).not.toContain('optional');
  });

  it('9. cleans required and declares required names an object does not', () => {
    const { schema, valid } = normalize(
      params(
        { population: { type: 'dict', required: ['adults', 'children'] } },
        { required: ['population', 'population', 7] },
      ),
    );
    expect(schema.required).toEqual(['population']);
    expect(schema.properties).toEqual({
      population: {
        type: 'object',
        properties: { adults: {}, children: {} },
        required: ['adults', 'children'],
      },
    });
    expect(valid({ population: { adults: 2, children: 1, pets: 1 } })).toBe(true);
    expect(valid({ population: { adults: 2 } })).toBe(false);
  });

  it('10. closes every object that names its keys, at any depth, and leaves free dicts open', () => {
    const point = { type: 'dict', properties: { x: { type: 'float' }, y: { type: 'float' } } };
    const { schema, valid } = normalize(
      params({
        route: { type: 'dict', properties: { from: point, to: point } },
        stops: { type: 'array', items: point },
        pair: { type: 'tuple', items: [point, { type: 'string' }] },
        meta: { type: 'dict', properties: {} },
        open: { type: 'dict', properties: { a: { type: 'string' } }, additionalProperties: true },
      }),
    );
    expect(schema.properties).toMatchObject({
      route: { additionalProperties: false, properties: { from: { additionalProperties: false } } },
      stops: { items: { additionalProperties: false } },
      pair: { items: [{ additionalProperties: false }, { type: 'string' }] },
      open: { additionalProperties: false },
    });
    expect((schema.properties as Record<string, unknown>).meta).toEqual({ type: 'object', properties: {} });
    const good = {
      route: { from: { x: 0, y: 0 }, to: { x: 1, y: 1 } },
      stops: [{ x: 2, y: 2 }],
      pair: [{ x: 3 }, 'p'],
      meta: { anything: 1 },
      open: { a: 'x' },
    };
    expect(valid(good)).toBe(true);
    expect(valid({ ...good, route: { ...good.route, via: { x: 1 } } })).toBe(false);
    expect(valid({ ...good, route: { from: { x: 0, y: 0, z: 0 } } })).toBe(false);
    expect(valid({ ...good, stops: [{ x: 2, y: 2, label: 's' }] })).toBe(false);
    expect(valid({ ...good, pair: [{ x: 3, z: 1 }, 'p'] })).toBe(false);
    expect(valid({ ...good, open: { a: 'x', b: 'y' } })).toBe(false);
    const js = normalize(params({ route: { type: 'dict', properties: { from: point } } }), 'javascript');
    expect(js.valid({ route: 'routeObject' })).toBe(true);
    expect(js.valid({ route: { from: { x: 0 }, z: 1 } })).toBe(false);
  });

  it('10. closes the top level and nested objects with properties, and leaves results open', () => {
    const { schema, valid } = normalize(
      params({ q: { type: 'dict', properties: { limit: { type: 'integer' } } }, free: { type: 'dict' } }),
    );
    expect(schema.additionalProperties).toBe(false);
    expect(valid({ q: { limit: 1 }, free: { anything: 1 } })).toBe(true);
    expect(valid({ other: 1 })).toBe(false);
    expect(valid({ q: { limit: 1, offset: 2 } })).toBe(false);
    expect(normalize(params({})).valid({ x: 1 })).toBe(false);
    const response = normalizeBfclSchema(
      { type: 'dict', properties: { a: { type: 'float' } } },
      { role: 'response' },
    );
    expect(response.schema).toEqual({ type: 'object', properties: { a: { type: 'number' } } });
  });

  it('11. moves array keywords misplaced on items to the array and drops keywords of other types', () => {
    const { schema, rules } = normalize(
      params({
        answers: { type: 'array', items: { type: 'integer', minItems: 5, maxItems: 100 } },
        name: { type: 'string', maximum: 3, items: { type: 'string' } },
      }),
    );
    expect(schema.properties).toEqual({
      answers: { type: 'array', items: { type: 'integer' }, minItems: 5, maxItems: 100 },
      name: { type: 'string' },
    });
    expect(rules.every((rule) => rule === 'misplaced-keyword')).toBe(true);
  });

  it('12. keeps supported keywords and drops the others, with formats Ajv knows only', () => {
    const { schema, rules } = normalize(
      params({
        fee: { type: 'integer', maximum: 400, minimum: 'zero' },
        date: { type: 'string', format: 'date', pattern: '^\\d' },
        when: { type: 'string', format: 'yyyy-mm-dd', pattern: '(' },
        x: { type: 'string', examples: ['a'], nullable: true },
      }),
    );
    expect(schema.properties).toEqual({
      fee: { type: 'integer', maximum: 400 },
      date: { type: 'string', format: 'date', pattern: '^\\d' },
      when: { type: 'string' },
      x: { type: 'string' },
    });
    expect(rules).toEqual(Array(5).fill('unknown-keyword'));
  });

  it('13. lets Java and JavaScript arguments be source text at every depth, except under an enum', () => {
    const java = normalize(
      params({ m: { type: 'HashMap' }, n: { type: 'integer' }, s: { type: 'String' } }),
      'java',
    );
    expect(
      java.valid({
        m: 'new HashMap<String, String>() {{ put("k", "v"); }}',
        n: 'ResultSet.TYPE_SCROLL_INSENSITIVE',
        s: 'x',
      }),
    ).toBe(true);
    expect(java.valid({ m: { k: 'v' }, n: 2 })).toBe(true);
    expect(java.valid({ n: true })).toBe(false);
    const js = normalize(
      params({
        store: { type: 'dict', properties: { state: { type: 'dict' } } },
        e: { type: 'integer', enum: [1, 2] },
      }),
      'javascript',
    );
    expect(js.valid({ store: { state: 'initialStateObject' } })).toBe(true);
    expect(js.valid({ e: 'one' })).toBe(false);
    expect(normalize(params({ n: { type: 'integer' } })).valid({ n: 'x' })).toBe(false);
  });

  it('14. reads a string property schema as a type name, and anything else as any value', () => {
    const { schema, rules } = normalize(params({ a: 'float', b: 42 }));
    expect(schema.properties).toEqual({ a: { type: 'number' }, b: {} });
    expect(rules).toEqual(['not-a-schema', 'type-name', 'not-a-schema']);
  });

  it('15. makes the top an object, and no parameters an object without arguments', () => {
    expect(normalize(undefined).schema).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
    expect(normalize({ type: 'string', properties: { a: { type: 'string' } } }).rules).toEqual(['top-level']);
  });
});
