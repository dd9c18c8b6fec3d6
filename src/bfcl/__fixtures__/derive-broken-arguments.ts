import type { JsonSchema } from '../../core/json-schema.js';
import { isPlainObject, type JsonType, jsonTypeOf, typesOf } from '../bfcl-schema-keywords.js';

export type BreakKind = 'missing-required' | 'wrong-type' | 'enum-outside' | 'unexpected-argument';

/** Arguments made invalid on purpose, and the JSON Pointer the rejection must name. */
export interface BrokenArguments {
  readonly kind: BreakKind;
  readonly arguments: Record<string, unknown>;
  readonly path: string;
}

const WRONG_VALUES: readonly { readonly type: JsonType; readonly value: unknown }[] = [
  { type: 'integer', value: 12345 },
  { type: 'string', value: 'not-a-valid-value' },
  { type: 'boolean', value: true },
  { type: 'object', value: { wrong: 'type' } },
  { type: 'array', value: ['wrong', 'type'] },
];
const UNEXPECTED = 'unexpected_argument';

/**
 * Derives invalid variants of valid arguments for a normalized BFCL input schema: a required argument
 * removed, a value of a type the schema refuses, an enum value outside the set (each when the schema
 * allows it), else an argument the closed schema does not declare. Always at least one.
 */
export function deriveBrokenArguments(
  schema: JsonSchema,
  valid: Readonly<Record<string, unknown>>,
): BrokenArguments[] {
  const properties = (isPlainObject(schema.properties) ? schema.properties : {}) as Record<
    string,
    JsonSchema
  >;
  const keys = Object.keys(valid).filter((key) => Object.hasOwn(properties, key));
  const broken: BrokenArguments[] = [];
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const removed = required.find((name) => Object.hasOwn(valid, name));
  if (removed !== undefined) {
    const args = { ...valid };
    delete args[removed];
    broken.push({ kind: 'missing-required', arguments: args, path: pointer(removed) });
  }
  for (const key of keys) {
    const wrong = wrongValueFor(properties[key] as JsonSchema);
    if (wrong === undefined) continue;
    broken.push({ kind: 'wrong-type', arguments: { ...valid, [key]: wrong }, path: pointer(key) });
    break;
  }
  for (const key of keys) {
    const outside = outsideEnum(properties[key] as JsonSchema, valid[key]);
    if (outside === undefined) continue;
    broken.push({
      kind: 'enum-outside',
      arguments: { ...valid, [key]: outside.value },
      path: pointer(key) + outside.suffix,
    });
    break;
  }
  if (
    broken.length === 0 &&
    schema.additionalProperties === false &&
    !Object.hasOwn(properties, UNEXPECTED)
  ) {
    broken.push({
      kind: 'unexpected-argument',
      arguments: { ...valid, [UNEXPECTED]: 1 },
      path: pointer(UNEXPECTED),
    });
  }
  return broken;
}

function wrongValueFor(property: JsonSchema): unknown {
  const declared = typesOf(property);
  const values = Array.isArray(property.enum) ? (property.enum as unknown[]) : undefined;
  const allowed = declared ?? values?.map(jsonTypeOf);
  if (allowed === undefined) return undefined;
  const accepts = (type: JsonType) =>
    allowed.includes(type) || (type === 'integer' && allowed.includes('number'));
  return WRONG_VALUES.find(({ type }) => !accepts(type))?.value;
}

function outsideEnum(property: JsonSchema, value: unknown): { value: unknown; suffix: string } | undefined {
  const own = Array.isArray(property.enum) ? (property.enum as unknown[]) : undefined;
  if (own !== undefined) return { value: outsideOf(own), suffix: '' };
  const items = isPlainObject(property.items) ? property.items : undefined;
  if (Array.isArray(items?.enum) && Array.isArray(value)) {
    return { value: [outsideOf(items.enum as unknown[])], suffix: '/0' };
  }
  return undefined;
}

/** A value of the enum's own kind that it does not hold. */
function outsideOf(values: readonly unknown[]): unknown {
  if (values.some((v) => typeof v === 'string')) {
    let candidate = 'not_in_the_enum';
    while (values.includes(candidate)) candidate += '_';
    return candidate;
  }
  const numbers = values.filter((v): v is number => typeof v === 'number');
  if (numbers.length > 0) return Math.max(...numbers) + 1;
  return 'not_in_the_enum';
}

function pointer(key: string): string {
  return `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}
