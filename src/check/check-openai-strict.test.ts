import { describe, expect, it } from 'vitest';
import { checkOpenAiStrict } from './check-openai-strict.js';

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

describe('checkOpenAiStrict', () => {
  it('accepts the documented subset: nested objects, arrays, anyOf, $defs, nullable types, supported constraints', () => {
    const schema = object(
      {
        id: { type: 'string', pattern: '^[0-9]+$', description: 'digits' },
        email: { type: ['string', 'null'], format: 'email' },
        when: { type: 'string', format: 'date-time' },
        amount: { type: 'number', minimum: 0, exclusiveMaximum: 1e9, multipleOf: 0.01 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 3 },
        address: object({ city: { type: 'string' } }),
        either: { anyOf: [{ type: 'string' }, object({ n: { type: 'integer' } })] },
        ref: { $ref: '#/$defs/item' },
        kind: { const: 'order', title: 'Kind' },
      },
      {
        $defs: { item: object({ sku: { type: 'string' } }) },
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
    );
    expect(checkOpenAiStrict(schema)).toEqual([]);
  });

  it('every object needs additionalProperties: false, nested ones included, at their own path', () => {
    const findings = checkOpenAiStrict(
      object({
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        lines: { type: 'array', items: { type: 'object', properties: {}, additionalProperties: true } },
      }),
    );
    expect(findings.map((f) => [f.code, f.message])).toEqual([
      [
        'STRICT_ADDITIONAL_PROPERTIES',
        'OpenAI strict mode: the object at #/properties/address must set "additionalProperties": false (every object, nested ones included)',
      ],
      [
        'STRICT_ADDITIONAL_PROPERTIES',
        'OpenAI strict mode: the object at #/properties/lines/items must set "additionalProperties": false (every object, nested ones included)',
      ],
    ]);
    expect(findings.every((f) => f.severity === 'error')).toBe(true);
  });

  it('every property must be required; the finding lists the optional ones', () => {
    const findings = checkOpenAiStrict({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } },
      required: ['b'],
      additionalProperties: false,
    });
    expect(findings).toHaveLength(1);
    expect(findings[0]?.code).toBe('STRICT_OPTIONAL_PROPERTY');
    expect(findings[0]?.message).toContain('(missing: a, c)');
  });

  it('groups the unsupported keywords of one node into one finding', () => {
    const findings = checkOpenAiStrict(
      object({ name: { type: 'string', minLength: 1, maxLength: 80 }, n: { type: 'integer', default: 3 } }),
    );
    expect(findings.map((f) => f.message)).toEqual([
      'OpenAI strict mode: the schema at #/properties/name uses "minLength", "maxLength", which strict mode does not support (state the constraint in the description and check it in the tool)',
      'OpenAI strict mode: the schema at #/properties/n uses "default", which strict mode does not support (state the constraint in the description and check it in the tool)',
    ]);
  });

  it.each([
    ['allOf', { allOf: [{ type: 'string' }] }],
    ['oneOf', { oneOf: [{ type: 'string' }, { type: 'number' }] }],
    ['not', { not: { type: 'string' } }],
    ['if', { if: { type: 'string' }, else: { type: 'number' } }],
    ['patternProperties', { type: 'object', patternProperties: {}, additionalProperties: false }],
    ['uniqueItems', { type: 'array', items: { type: 'string' }, uniqueItems: true }],
    ['prefixItems', { type: 'array', prefixItems: [{ type: 'string' }] }],
  ])('%s is not supported', (keyword, node) => {
    const findings = checkOpenAiStrict(object({ x: node }));
    expect(findings.map((f) => f.code)).toContain('STRICT_UNSUPPORTED_KEYWORD');
    expect(findings.map((f) => f.message).join('\n')).toContain(`"${keyword}"`);
  });

  it('a tuple (items as an array) is not supported', () => {
    const findings = checkOpenAiStrict(object({ pair: { type: 'array', items: [{ type: 'string' }] } }));
    expect(findings.map((f) => f.message)).toEqual([
      'OpenAI strict mode: the schema at #/properties/pair/items is a tuple (an array of schemas), which strict mode does not support',
    ]);
  });

  it('only the documented string formats are known', () => {
    const findings = checkOpenAiStrict(
      object({ site: { type: 'string', format: 'uri' }, id: { type: 'string', format: 'uuid' } }),
    );
    expect(findings.map((f) => [f.code, f.message])).toEqual([
      [
        'STRICT_UNSUPPORTED_FORMAT',
        'OpenAI strict mode: the schema at #/properties/site has format "uri", which strict mode does not support',
      ],
    ]);
  });

  it('escapes property names in paths (JSON Pointer)', () => {
    const findings = checkOpenAiStrict(object({ 'a/b~c': { type: 'string', minLength: 1 } }));
    expect(findings[0]?.message).toContain('#/properties/a~1b~0c');
  });

  it('reports the size limits: nesting over 10 objects deep (once), over 1,000 enum values', () => {
    let deep: Record<string, unknown> = object({ leaf: { type: 'string' } });
    for (let i = 0; i < 11; i++) deep = object({ next: deep });
    const nesting = checkOpenAiStrict(deep).filter((f) => f.code === 'STRICT_LIMIT');
    expect(nesting).toHaveLength(1);
    expect(nesting[0]?.message).toContain('nests objects 11 deep; the limit is 10');

    const enumValues = Array.from({ length: 1_001 }, (_, i) => `v${i}`);
    const wide = checkOpenAiStrict(object({ e: { type: 'string', enum: enumValues } }));
    expect(wide.map((f) => f.message)).toEqual([
      'OpenAI strict mode: 1001 enum values in all; the limit is 1000',
    ]);
  });

  it('exactly 10 levels of objects are fine', () => {
    let deep: Record<string, unknown> = object({ leaf: { type: 'string' } });
    for (let i = 0; i < 9; i++) deep = object({ next: deep });
    expect(checkOpenAiStrict(deep)).toEqual([]);
  });

  it('survives a cyclic schema object', () => {
    const node: Record<string, unknown> = object({});
    (node.properties as Record<string, unknown>).self = node;
    node.required = ['self'];
    expect(checkOpenAiStrict(node)).toEqual([]);
  });

  it('a non-object sub-schema (true, null) is reported, not crashed on', () => {
    const findings = checkOpenAiStrict(object({ any: true, nothing: null }));
    expect(findings.map((f) => f.message)).toEqual([
      'OpenAI strict mode: the schema at #/properties/any is true, not a schema object',
      'OpenAI strict mode: the schema at #/properties/nothing is null, not a schema object',
    ]);
  });
});
