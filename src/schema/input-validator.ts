import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isJsonSchemaObject, type JsonSchema } from '../core/json-schema.js';
import { toJsonPointer, type ValidationOutcome } from '../core/validation-issue.js';
import type { SchemaCompiler } from './schema-compiler.js';

/** A tool's input schema: JSON Schema, or a Standard Schema (Zod, Valibot, ArkType). */
export type SchemaInput<T> = JsonSchema | StandardSchemaV1<unknown, T>;

/** A tool's own check of its arguments, sync or async. */
export type InputValidator<T> = (value: unknown) => ValidationOutcome<T> | Promise<ValidationOutcome<T>>;

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  if (value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/** Builds a validator from a JSON Schema (compiled once, now) or a Standard Schema (zod, valibot, ...). */
export function createInputValidator<T>(schema: SchemaInput<T>, compiler: SchemaCompiler): InputValidator<T> {
  if (isStandardSchema(schema)) return standardValidator(schema as StandardSchemaV1<unknown, T>);
  if (!isJsonSchemaObject(schema))
    throw new TypeError('schema must be a JSON Schema object or a Standard Schema');
  return compiler.compile(schema) as InputValidator<T>;
}

function standardValidator<T>(schema: StandardSchemaV1<unknown, T>): InputValidator<T> {
  const convert = (result: StandardSchemaV1.Result<T>): ValidationOutcome<T> =>
    result.issues === undefined
      ? { ok: true, value: result.value }
      : {
          ok: false,
          issues: result.issues.map((issue) => ({
            path: toJsonPointer(issue.path),
            code: 'schema',
            message: issue.message,
          })),
        };
  // The schema's own validate may answer now or later; awaited either way (the chain awaits validators).
  return async (value) => convert(await schema['~standard'].validate(value));
}

/** What a Standard Schema converts to, or why it cannot be shown to a model as JSON Schema. */
export type JsonSchemaConversion =
  | { readonly ok: true; readonly schema: JsonSchema }
  | { readonly ok: false; readonly problem: string };

/** What to install or write, per Standard Schema vendor, when a schema has no JSON Schema converter. */
const CONVERTER_HINTS: Readonly<Record<string, string>> = {
  valibot:
    'install @valibot/to-json-schema and pass toStandardJsonSchema(schema) from it, which converts and validates',
  zod: 'use zod 4.2 or later, whose schemas convert themselves (zod 3 schemas do not)',
};

/**
 * The JSON Schema a Standard Schema converts to (Standard JSON Schema: `~standard.jsonSchema.input`, or
 * `.output` for a result), or what is missing: a schema without a converter (valibot without
 * `@valibot/to-json-schema`, zod 3) cannot be shown to a model, which would then call the tool blind.
 */
export function convertStandardSchema(
  schema: StandardSchemaV1,
  side: 'input' | 'output' = 'input',
): JsonSchemaConversion {
  let vendor = 'unknown';
  try {
    const props = schema['~standard'] as { vendor?: unknown; jsonSchema?: Record<string, unknown> };
    if (typeof props.vendor === 'string') vendor = props.vendor.slice(0, 40);
    const convert = props.jsonSchema?.[side];
    if (typeof convert !== 'function') {
      const hint = Object.hasOwn(CONVERTER_HINTS, vendor)
        ? CONVERTER_HINTS[vendor]
        : 'wrap it in a Standard JSON Schema converter for its library, or pass a JSON Schema';
      return {
        ok: false,
        problem: `it is a ${JSON.stringify(vendor)} Standard Schema without a JSON Schema converter (~standard.jsonSchema): ${hint}.`,
      };
    }
    const converted: unknown = convert({ target: 'draft-07' });
    // Not `isJsonSchemaObject`: zod's JSON Schema objects answer `'~standard' in` (inherited).
    if (typeof converted !== 'object' || converted === null || Array.isArray(converted)) {
      return {
        ok: false,
        problem: `its ${JSON.stringify(vendor)} converter did not return a JSON Schema object.`,
      };
    }
    return { ok: true, schema: converted as JsonSchema };
  } catch (error) {
    return {
      ok: false,
      problem: `its ${JSON.stringify(vendor)} schema cannot be converted to JSON Schema: ${messageOf(error)}`,
    };
  }
}

/** A thrown value's message, short, without trusting its getters. */
function messageOf(error: unknown): string {
  try {
    const message = error instanceof Error ? error.message : undefined;
    return typeof message === 'string' && message !== '' ? message.slice(0, 200) : 'its converter threw';
  } catch {
    return 'its converter threw';
  }
}

/** The JSON Schema to show providers: the schema itself, or what a Standard JSON Schema converts to. */
export function toProviderJsonSchema(schema: SchemaInput<unknown>): JsonSchema | undefined {
  if (!isStandardSchema(schema)) return schema as JsonSchema;
  const conversion = convertStandardSchema(schema);
  return conversion.ok ? conversion.schema : undefined;
}
