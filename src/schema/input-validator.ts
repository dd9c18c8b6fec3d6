import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isJsonSchemaObject, type JsonSchema } from './json-schema.js';
import type { SchemaCompiler } from './schema-compiler.js';
import { toJsonPointer, type ValidationOutcome } from './validation-issue.js';

export type SchemaInput<T> = JsonSchema | StandardSchemaV1<unknown, T>;

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
  return (value) => {
    const result = schema['~standard'].validate(value);
    return result instanceof Promise ? result.then(convert) : convert(result);
  };
}

/** The JSON Schema to show providers: the schema itself, or what a Standard JSON Schema converts to. */
export function toProviderJsonSchema(schema: SchemaInput<unknown>): JsonSchema | undefined {
  if (!isStandardSchema(schema)) return schema as JsonSchema;
  const converter = (
    schema['~standard'] as { jsonSchema?: { input?: (o: { target: string }) => JsonSchema } }
  ).jsonSchema;
  if (typeof converter?.input !== 'function') return undefined;
  try {
    return converter.input({ target: 'draft-07' });
  } catch {
    return undefined;
  }
}
