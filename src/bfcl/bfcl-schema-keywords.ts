/** The vocabulary normalizeBfclSchema works with: type names, JSON types, and the keywords it keeps. */

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** Marks a node that accepts any JSON value (no `type`). */
export const ANY_TYPE = 'any';

/** Type names BFCL uses (and their Python, Java and JavaScript cousins), lower-cased, to JSON types. */
const TYPE_NAMES: Readonly<Record<string, JsonType | typeof ANY_TYPE>> = {
  object: 'object',
  dict: 'object',
  hashmap: 'object',
  hashtable: 'object',
  map: 'object',
  array: 'array',
  list: 'array',
  tuple: 'array',
  arraylist: 'array',
  queue: 'array',
  stack: 'array',
  set: 'array',
  string: 'string',
  str: 'string',
  char: 'string',
  number: 'number',
  float: 'number',
  double: 'number',
  integer: 'integer',
  int: 'integer',
  long: 'integer',
  short: 'integer',
  byte: 'integer',
  bigint: 'integer',
  boolean: 'boolean',
  bool: 'boolean',
  null: 'null',
  any: ANY_TYPE,
  '': ANY_TYPE,
};

/** The JSON type of a BFCL type name, ANY_TYPE, or undefined when the name is not known. */
export function readTypeName(name: unknown): JsonType | typeof ANY_TYPE | undefined {
  if (name === undefined) return ANY_TYPE;
  if (typeof name !== 'string') return undefined;
  const key = name.trim().toLowerCase();
  return Object.hasOwn(TYPE_NAMES, key) ? TYPE_NAMES[key] : undefined;
}

/** The types a normalized node declares (`type` as a string or a list), or undefined for any value. */
export function typesOf(node: Readonly<Record<string, unknown>>): readonly JsonType[] | undefined {
  const { type } = node;
  if (type === undefined) return undefined;
  return (Array.isArray(type) ? type : [type]) as JsonType[];
}

/** A value as text for a note: JSON when it has a short form, never throws (bigint, cycles). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === undefined) return 'none';
  const text = stableKey(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** A key under which equal JSON values are equal (JSON text), for any value. */
export function stableKey(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type of a value, for messages and matching (`integer` for whole numbers). */
export function jsonTypeOf(value: unknown): JsonType | 'undefined' | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'object':
      return 'object';
    case 'undefined':
      return 'undefined';
    default:
      return 'other';
  }
}

/** Whether a value has one of the types (a whole number is also a `number`). */
export function matchesTypes(value: unknown, types: readonly JsonType[]): boolean {
  const type = jsonTypeOf(value);
  if (type === 'integer') return types.includes('integer') || types.includes('number');
  return types.includes(type as JsonType);
}

export const ARRAY_KEYWORDS = ['minItems', 'maxItems', 'uniqueItems'] as const;
const NUMBER_KEYWORDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);
const COUNT_KEYWORDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);
/** The formats ajv-formats adds: Ajv's strict mode refuses any other. */
const FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);

export type KeywordVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly rule: 'misplaced-keyword' | 'unknown-keyword'; readonly reason: string };

/** Whether a keyword other than the structural ones may stay on a node of the given types. */
export function readKeyword(
  keyword: string,
  value: unknown,
  types: readonly JsonType[] | typeof ANY_TYPE,
): KeywordVerdict {
  const has = (...wanted: JsonType[]) => types === ANY_TYPE || wanted.some((t) => types.includes(t));
  const misplaced = (kind: string): KeywordVerdict => ({
    ok: false,
    rule: 'misplaced-keyword',
    reason: `it applies to ${kind}, not to ${types === ANY_TYPE ? 'any value' : types.join(' or ')}`,
  });
  const malformed = (reason: string): KeywordVerdict => ({ ok: false, rule: 'unknown-keyword', reason });
  if (NUMBER_KEYWORDS.has(keyword)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return malformed('not a number');
    if (keyword === 'multipleOf' && value <= 0) return malformed('not a positive number');
    return has('number', 'integer') ? { ok: true } : misplaced('numbers');
  }
  if (COUNT_KEYWORDS.has(keyword)) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return malformed('not a count');
    const arrays = keyword.endsWith('Items');
    return has(arrays ? 'array' : 'string') ? { ok: true } : misplaced(arrays ? 'arrays' : 'strings');
  }
  if (keyword === 'uniqueItems') {
    if (typeof value !== 'boolean') return malformed('not true or false');
    return has('array') ? { ok: true } : misplaced('arrays');
  }
  if (keyword === 'pattern') {
    if (typeof value !== 'string' || !compiles(value)) return malformed('not a regular expression');
    return has('string') ? { ok: true } : misplaced('strings');
  }
  if (keyword === 'format') {
    if (typeof value !== 'string' || !FORMATS.has(value)) return malformed('not a format Ajv knows');
    return { ok: true };
  }
  return malformed('not a supported keyword');
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
