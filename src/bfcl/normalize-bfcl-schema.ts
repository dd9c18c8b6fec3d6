/**
 * # BFCL schemas to JSON Schema
 *
 * BFCL `parameters` look like JSON Schema but are not (see ../shared/corpus/bfcl/README.md). This turns
 * them into JSON Schema that Ajv compiles in strict mode, leniently: a definition is never refused for
 * a quirk, only for being hostile (not an object, `__proto__` keys, nested deeper than MAX_SCHEMA_DEPTH).
 * Every change is reported as a note `{ path, rule, detail }`. The rules, by the name of their note:
 *
 *  1. `type-name`      BFCL's type names become JSON Schema types, case-insensitively, as BFCL's own
 *                      GORILLA_TO_OPENAPI map does: dict, HashMap, Hashtable → object; float, double →
 *                      number; long, short, byte, Bigint, int → integer; String, char, str → string;
 *                      bool, Boolean → boolean; list, tuple, Array, ArrayList, Queue, Stack, set → array.
 *  2. `any-type`       `any`, `Any` and the empty type `""` accept any JSON value. (BFCL maps `any` to
 *                      string, but its answers pass numbers and booleans to `any` parameters.)
 *     `unknown-type`   A type name in no table also accepts any value, so nothing is refused for it.
 *  3. `tuple`          `tuple` is an array of its `items` with no length: BFCL declares none. A list
 *                      of `items` schemas (one per position, memory_kv's responses) is kept as such.
 *  4. `enum-on-array`  An `enum` on an array constrains its elements: it moves to `items`.
 *  5. `enum-type`      An `enum` whose values are not all of the declared type (integer parameters with
 *                      `"1"`…`"dontcare"`, boolean ones with `"True"`) keeps the enum and drops the type:
 *                      the listed values are what the function takes. Repeated values are removed and
 *                      an empty enum is dropped.
 *  6. `nullable-default` Defaults, one rule for 6 and 7: a parameter never refuses its own default.
 *                      `default: null` is BFCL's "no default", and its answers pass null to exactly such
 *                      parameters: the node accepts null (its type and enum gain null), and the default
 *                      is kept.
 *  7. `dropped-default` Any other default outside the node's type (`"false"` for a boolean, `"None"` for
 *                      a dict, an array default on an `items` schema) or enum (`"all levels"` for
 *                      `["bronze", "gold"]`) is dropped, with a note, and the node is kept otherwise: the
 *                      definition stays usable, and the model is never shown a default outside the
 *                      type or enum it is shown. Only type and enum are checked (the corpus test checks
 *                      that every kept default passes its whole node). A default is a hint to the model:
 *                      nothing fills it in.
 *  8. `optional-key`   The non-standard `optional` key is dropped. On a property, a true value (`true`,
 *                      `"true"`, `"True"`, `"yes"`) removes the property from its object's `required`;
 *                      on an object, a list of names removes those names.
 *  9. `required-cleaned` `required` that is not a list of strings loses the rest; repeats are removed; a
 *                      required name the object does not declare (`parallel_29`: a dict with `required`
 *                      and no `properties`) is added as a property of any type: Ajv's strict mode refuses
 *                      undeclared required names, and a closed object (rule 10) could not hold it.
 * 10. `closed-object`  An object that names its keys refuses any other (`additionalProperties: false`),
 *                      at every depth (properties, items): the top level always names them (the
 *                      function's arguments; none when `properties` is missing or empty), a nested dict
 *                      when its `properties` name at least one. BFCL and JSON Schema leave objects open
 *                      unless told otherwise; toolwarden closes them because a key the model invents, an
 *                      argument or a field of a nested dict, is a mistake the model can fix when it is
 *                      told which key (BFCL's checker refuses arguments not in the function). A nested
 *                      dict that names no key (`{"type": "dict"}`, or `properties: {}` as the `params`
 *                      "key-value pairs" of live_simple_132) is a free dict and stays open. A closed
 *                      object's own `additionalProperties` is replaced. Not noted (it applies to every
 *                      function). Response schemas (results) stay open.
 * 11. `misplaced-keyword` `minItems`/`maxItems`/`uniqueItems` on a non-array `items` schema move to the
 *                      array; `items` on a non-array, and number, string or array keywords on nodes of
 *                      other types, are dropped.
 * 12. `unknown-keyword` Keywords outside the supported set, malformed values of supported keywords
 *                      (a non-numeric `maximum`, a pattern that does not compile) and formats Ajv does
 *                      not know are dropped: Ajv's strict mode refuses them.
 * 13. `source-string`  In Java and JavaScript functions every typed node below the top also accepts a
 *                      string: BFCL sends Java/JS arguments as source text (`new HashMap<>() {{...}}`, a
 *                      variable name, `ResultSet.TYPE_SCROLL_INSENSITIVE`), and its answers hold that text
 *                      or the converted value, at any depth (`store.initialState: "initialStateObject"`).
 *                      An enum still limits the values.
 * 14. `not-a-schema`   A property whose schema is a string is read as a type name; any other non-object
 *                      accepts any value.
 * 15. `top-level`      The top of `parameters` is always an object (`dict`); no `parameters` means no
 *                      arguments.
 *
 * Supported keywords: type, description, title, enum, default, properties, required, items,
 * additionalProperties, format, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf,
 * minLength, maxLength, pattern, minItems, maxItems, uniqueItems.
 */

import type { JsonSchema } from '../core/json-schema.js';
import { findSchemaProblem } from '../formats/find-schema-problem.js';
import { ToolFormatError } from '../formats/tool-format-error.js';
import type { BfclLanguage } from './bfcl-function.js';
import type { BfclNote, BfclRule, NoteFn } from './bfcl-note.js';
import {
  ANY_TYPE,
  ARRAY_KEYWORDS,
  describeValue,
  isPlainObject,
  type JsonType,
  jsonTypeOf,
  readKeyword,
  readTypeName,
  typesOf,
} from './bfcl-schema-keywords.js';
import { normalizeDefault, normalizeEnum } from './normalize-bfcl-values.js';

export interface NormalizeBfclSchemaOptions {
  /** `parameters` (an object of arguments, closed) or `response` (a result, left open). */
  readonly role: 'parameters' | 'response';
  /** Java and JavaScript parameters also accept source text (rule 13). Default `python`. */
  readonly language?: BfclLanguage;
}

export interface NormalizedBfclSchema {
  readonly schema: JsonSchema;
  readonly notes: readonly BfclNote[];
}

const TRUE_WORDS = new Set(['true', 'yes']);

/**
 * Normalizes a BFCL schema by the rules above. Throws a ToolFormatError only for hostile input: a cycle,
 * a `__proto__` key, a value that is not JSON, nesting deeper than MAX_SCHEMA_DEPTH.
 */
export function normalizeBfclSchema(
  source: unknown,
  options: NormalizeBfclSchemaOptions,
): NormalizedBfclSchema {
  const problem = findSchemaProblem(source);
  if (problem !== undefined) {
    throw new ToolFormatError({ format: 'bfcl', path: problem.path, problem: problem.message });
  }
  const notes: BfclNote[] = [];
  const note = (path: string, rule: BfclRule, detail: string): void => {
    notes.push({ path, rule, detail });
  };
  const context: Context = { note, closeObjects: options.role === 'parameters' };
  if (options.role === 'response') return { schema: normalizeNode(source, '', context), notes };

  let top: Record<string, unknown> = isPlainObject(source) ? { ...source } : {};
  if (source === undefined) note('', 'top-level', 'no parameters: the function takes no arguments');
  else if (!isPlainObject(source))
    note('', 'top-level', `parameters of type ${jsonTypeOf(source)} replaced by an object`);
  if (typeof top.type !== 'string' || readTypeName(top.type) !== 'object') {
    note('', 'top-level', `type ${describeValue(top.type)} read as an object`);
  }
  top = { ...top, type: 'object', properties: isPlainObject(top.properties) ? top.properties : {} };
  const schema = normalizeNode(top, '', { ...context, topLevel: true });
  if (options.language === 'java' || options.language === 'javascript') acceptSourceText(schema, '', note);
  return { schema, notes };
}

interface Context {
  readonly note: NoteFn;
  readonly closeObjects: boolean;
  readonly topLevel?: boolean;
}

function normalizeNode(source: unknown, path: string, context: Context): Record<string, unknown> {
  const { note } = context;
  if (typeof source === 'string') {
    note(path, 'not-a-schema', `the string ${describeValue(source)} read as a type name`);
    return normalizeNode({ type: source }, path, context);
  }
  if (!isPlainObject(source)) {
    note(path, 'not-a-schema', `a schema of type ${jsonTypeOf(source)} accepts any value`);
    return {};
  }
  const types = readTypes(source.type, path, note);
  const out: Record<string, unknown> = {};
  if (types !== ANY_TYPE) out.type = [...types];
  for (const keyword of ['description', 'title'] as const) {
    if (typeof source[keyword] === 'string') out[keyword] = source[keyword];
  }
  const isType = (t: JsonType) => types === ANY_TYPE || types.includes(t);

  if (isType('object') && (isPlainObject(source.properties) || source.properties === undefined)) {
    normalizeObject(source, out, path, context);
  } else if (source.properties !== undefined) {
    note(path, 'misplaced-keyword', 'properties on a node that is not an object dropped');
  }
  if (source.items !== undefined) {
    if (!isType('array')) note(path, 'misplaced-keyword', 'items on a node that is not an array dropped');
    else if (isPlainObject(source.items)) normalizeItems(source, out, path, context);
    else if (Array.isArray(source.items)) {
      const inner = { ...context, topLevel: false };
      out.items = source.items.map((item: unknown, i) =>
        normalizeNode(item, join(path, 'items', String(i)), inner),
      );
      note(path, 'tuple', 'an items list: each position keeps its own schema');
    } else note(path, 'misplaced-keyword', `items of type ${jsonTypeOf(source.items)} dropped`);
  }
  normalizeEnum(source, out, path, note);
  normalizeDefault(source, out, path, note);
  for (const [keyword, value] of Object.entries(source)) {
    if (HANDLED.has(keyword)) continue;
    const kept = readKeyword(keyword, value, types);
    if (kept.ok) {
      if (!(keyword in out)) out[keyword] = value;
    } else note(path, kept.rule, `${keyword} dropped: ${kept.reason}`);
  }
  if (Array.isArray(out.type) && out.type.length === 1) out.type = out.type[0];
  return out;
}

/** Keywords normalizeNode handles itself; the rest go through readKeyword. */
const HANDLED = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'optional',
  'items',
  'enum',
  'default',
  'additionalProperties',
]);

function readTypes(type: unknown, path: string, note: NoteFn): readonly JsonType[] | typeof ANY_TYPE {
  if (type === undefined) return ANY_TYPE;
  const names = Array.isArray(type) ? type : [type];
  const types: JsonType[] = [];
  for (const name of names) {
    const mapped = readTypeName(name);
    const shown = describeValue(name);
    if (mapped === undefined) {
      note(path, 'unknown-type', `type ${shown} is not known: any value is accepted`);
      return ANY_TYPE;
    }
    if (mapped === ANY_TYPE) {
      note(path, 'any-type', `type ${shown} accepts any value`);
      return ANY_TYPE;
    }
    if (name !== mapped)
      note(path, name === 'tuple' ? 'tuple' : 'type-name', `type ${shown} read as "${mapped}"`);
    if (!types.includes(mapped)) types.push(mapped);
  }
  return types;
}

function normalizeObject(
  source: Readonly<Record<string, unknown>>,
  out: Record<string, unknown>,
  path: string,
  context: Context,
): void {
  const { note } = context;
  const declared = isPlainObject(source.properties) ? source.properties : undefined;
  const optional = new Set<string>();
  if (declared !== undefined) {
    const properties: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(declared)) {
      const childPath = join(path, 'properties', name);
      properties[name] = normalizeNode(child, childPath, { ...context, topLevel: false });
      if (isPlainObject(child) && child.optional !== undefined) {
        if (isTrue(child.optional)) optional.add(name);
        note(
          childPath,
          'optional-key',
          `optional ${JSON.stringify(child.optional)} ${isTrue(child.optional) ? 'makes it optional' : 'dropped'}`,
        );
      }
    }
    out.properties = properties;
  }
  if (Array.isArray(source.optional)) {
    for (const name of source.optional) if (typeof name === 'string') optional.add(name);
    note(
      path,
      'optional-key',
      `optional list ${JSON.stringify(source.optional).slice(0, 60)} removed from required`,
    );
  } else if (source.optional !== undefined && context.topLevel === true) {
    note(path, 'optional-key', 'optional dropped');
  }
  const required = readRequired(source.required, path, note).filter((name) => !optional.has(name));
  // Rule 10: an object that names its keys is closed; the top level always names them (none: no arguments).
  const close =
    context.closeObjects &&
    declared !== undefined &&
    (context.topLevel === true || Object.keys(declared).length > 0);
  if (required.length > 0) {
    if (out.properties === undefined) out.properties = {};
    const properties = out.properties as Record<string, unknown>;
    for (const name of required) {
      if (Object.hasOwn(properties, name)) continue;
      properties[name] = {};
      note(
        path,
        'required-cleaned',
        `required "${name.slice(0, 40)}" is not declared: added as a property of any type`,
      );
    }
    out.required = required;
  }
  if (close) out.additionalProperties = false;
  else if (typeof source.additionalProperties === 'boolean')
    out.additionalProperties = source.additionalProperties;
}

function readRequired(required: unknown, path: string, note: NoteFn): string[] {
  if (required === undefined) return [];
  if (!Array.isArray(required)) {
    note(path, 'required-cleaned', `required of type ${jsonTypeOf(required)} dropped`);
    return [];
  }
  const names = [...new Set(required.filter((name): name is string => typeof name === 'string'))];
  if (names.length !== required.length)
    note(path, 'required-cleaned', 'non-string or repeated required names removed');
  return names;
}

function normalizeItems(
  source: Readonly<Record<string, unknown>>,
  out: Record<string, unknown>,
  path: string,
  context: Context,
): void {
  const items = source.items as Readonly<Record<string, unknown>>;
  const itemsPath = join(path, 'items');
  out.items = normalizeNode(items, itemsPath, { ...context, topLevel: false });
  if (typesOf(out.items as Record<string, unknown>)?.includes('array')) return;
  for (const keyword of ARRAY_KEYWORDS) {
    if (items[keyword] === undefined || source[keyword] !== undefined) continue;
    const kept = readKeyword(keyword, items[keyword], ['array']);
    if (!kept.ok) continue;
    out[keyword] = items[keyword];
    context.note(itemsPath, 'misplaced-keyword', `${keyword} moved to the array`);
  }
}

/** Rule 13, on every typed node below the top-level object (BFCL's answers nest source text in dicts too). */
function acceptSourceText(node: Record<string, unknown>, path: string, note: NoteFn): void {
  const children: [string, Record<string, unknown>][] = [];
  if (isPlainObject(node.properties)) {
    for (const [name, child] of Object.entries(node.properties))
      children.push([join(path, 'properties', name), child as Record<string, unknown>]);
  }
  if (isPlainObject(node.items)) children.push([join(path, 'items'), node.items as Record<string, unknown>]);
  for (const [childPath, child] of children) {
    const type = typesOf(child);
    if (type !== undefined && !type.includes('string')) {
      child.type = [...type, 'string'];
      note(childPath, 'source-string', 'also accepts source text (a string)');
    }
    acceptSourceText(child, childPath, note);
  }
}

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === 'string' && TRUE_WORDS.has(value.toLowerCase()));
}

function join(path: string, ...keys: string[]): string {
  const tail = keys.map((key) => (key.length > 60 ? `${key.slice(0, 60)}…` : key)).join('.');
  return path === '' ? tail : `${path}.${tail}`;
}
