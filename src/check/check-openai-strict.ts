import type { JsonSchema } from '../core/json-schema.js';
import { toJsonPointer } from '../core/validation-issue.js';
import type { CheckFinding } from './check-report.js';

/**
 * OpenAI Structured Outputs, strict mode ("Supported schemas", platform.openai.com/docs/guides/structured-outputs):
 * the keywords it accepts, the string formats it knows, and its size limits. Anything else is rejected
 * when the tool is sent with `strict: true`.
 */
const ANNOTATIONS = [
  'type',
  'description',
  'title',
  '$comment',
  '$schema',
  '$id',
  'enum',
  'const',
  'anyOf',
  '$ref',
];
const DEFINITIONS = ['$defs', 'definitions'];
const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties'];
const ARRAY_KEYWORDS = ['items', 'minItems', 'maxItems'];
const STRING_KEYWORDS = ['pattern', 'format'];
const NUMBER_KEYWORDS = ['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'];
const SUPPORTED = new Set([
  ...ANNOTATIONS,
  ...DEFINITIONS,
  ...OBJECT_KEYWORDS,
  ...ARRAY_KEYWORDS,
  ...STRING_KEYWORDS,
  ...NUMBER_KEYWORDS,
]);
const SUPPORTED_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const MAX_OBJECT_NESTING = 10;
const MAX_PROPERTIES = 5_000;
const MAX_ENUM_VALUES = 1_000;
/** Beyond this the walk stops: a schema this deep is already over every limit. */
const MAX_WALK_DEPTH = 64;

/**
 * Lists what keeps an input schema from being used with OpenAI's strict mode. It runs only when asked
 * (the tools are sent with `strict: true`), where OpenAI rejects such a schema: every finding is an
 * error. Paths are JSON Pointers into the schema (`#/properties/orderId`).
 */
export function checkOpenAiStrict(schema: JsonSchema): CheckFinding[] {
  const walk = new StrictWalk();
  walk.visit(schema, '#', 0, 0);
  if (walk.properties > MAX_PROPERTIES) {
    walk.report(
      'STRICT_LIMIT',
      `${walk.properties} object properties in all; the limit is ${MAX_PROPERTIES}`,
    );
  }
  if (walk.enumValues > MAX_ENUM_VALUES) {
    walk.report('STRICT_LIMIT', `${walk.enumValues} enum values in all; the limit is ${MAX_ENUM_VALUES}`);
  }
  return walk.findings;
}

class StrictWalk {
  readonly findings: CheckFinding[] = [];
  readonly #visited = new Set<object>();
  properties = 0;
  enumValues = 0;
  #tooDeep = false;

  report(code: CheckFinding['code'], message: string): void {
    this.findings.push({ severity: 'error', code, message: `OpenAI strict mode: ${message}` });
  }

  visit(node: unknown, path: string, objectDepth: number, walkDepth: number): void {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      this.report(
        'STRICT_UNSUPPORTED_KEYWORD',
        `the schema at ${path} is ${JSON.stringify(node)}, not a schema object`,
      );
      return;
    }
    if (this.#visited.has(node) || walkDepth > MAX_WALK_DEPTH) return;
    this.#visited.add(node);
    const schema = node as Record<string, unknown>;

    const unsupported = Object.keys(schema).filter((key) => !SUPPORTED.has(key));
    if (unsupported.length > 0) {
      const list = unsupported.map((key) => `"${key}"`).join(', ');
      this.report(
        'STRICT_UNSUPPORTED_KEYWORD',
        `the schema at ${path} uses ${list}, which strict mode does not support (state the constraint in the description and check it in the tool)`,
      );
    }
    if (typeof schema.format === 'string' && !SUPPORTED_FORMATS.has(schema.format)) {
      this.report(
        'STRICT_UNSUPPORTED_FORMAT',
        `the schema at ${path} has format "${schema.format}", which strict mode does not support`,
      );
    }
    if (Array.isArray(schema.enum)) this.enumValues += schema.enum.length;

    const isObject = hasType(schema, 'object') || 'properties' in schema;
    let depth = objectDepth;
    if (isObject) {
      depth++;
      if (depth > MAX_OBJECT_NESTING && !this.#tooDeep) {
        this.#tooDeep = true;
        this.report(
          'STRICT_LIMIT',
          `the schema at ${path} nests objects ${depth} deep; the limit is ${MAX_OBJECT_NESTING}`,
        );
      }
      this.#checkObject(schema, path);
    }
    for (const [key, child] of entries(schema.properties)) {
      this.visit(child, `${path}/properties${toJsonPointer([key])}`, depth, walkDepth + 1);
    }
    if (Array.isArray(schema.items)) {
      this.report(
        'STRICT_UNSUPPORTED_KEYWORD',
        `the schema at ${path}/items is a tuple (an array of schemas), which strict mode does not support`,
      );
    } else if (schema.items !== undefined) {
      this.visit(schema.items, `${path}/items`, depth, walkDepth + 1);
    }
    if (Array.isArray(schema.anyOf)) {
      schema.anyOf.forEach((child, i) => {
        this.visit(child, `${path}/anyOf/${i}`, depth, walkDepth + 1);
      });
    }
    for (const keyword of DEFINITIONS) {
      for (const [key, child] of entries(schema[keyword])) {
        this.visit(child, `${path}/${keyword}${toJsonPointer([key])}`, depth, walkDepth + 1);
      }
    }
  }

  #checkObject(schema: Record<string, unknown>, path: string): void {
    if (schema.additionalProperties !== false) {
      this.report(
        'STRICT_ADDITIONAL_PROPERTIES',
        `the object at ${path} must set "additionalProperties": false (every object, nested ones included)`,
      );
    }
    const keys = entries(schema.properties).map(([key]) => key);
    this.properties += keys.length;
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const optional = keys.filter((key) => !required.has(key));
    if (optional.length > 0) {
      this.report(
        'STRICT_OPTIONAL_PROPERTY',
        `the object at ${path} must list every property in "required" (missing: ${optional.join(', ')}); make an optional one nullable instead, e.g. "type": ["string", "null"]`,
      );
    }
  }
}

function hasType(schema: Record<string, unknown>, type: string): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

function entries(value: unknown): Array<[string, unknown]> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
}
