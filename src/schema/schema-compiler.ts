import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from './json-schema.js';
import type { ValidationIssue, ValidationOutcome } from './validation-issue.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object on some setups.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

export type CompiledValidator = (value: unknown) => ValidationOutcome<unknown>;

/**
 * Compiles JSON Schemas with one Ajv instance. Share one compiler across many tools to compile faster
 * (an Ajv instance costs a few milliseconds to create); each compiler keeps its own cache.
 */
export interface SchemaCompiler {
  /** Throws the Ajv error when the schema is invalid or uses unknown keywords. */
  compile(schema: JsonSchema): CompiledValidator;
}

export function createSchemaCompiler(): SchemaCompiler {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    logger: false,
  });
  addFormats(ajv);
  return {
    compile(schema) {
      const validate = ajv.compile(schema);
      return (value) => (validate(value) ? { ok: true, value } : { ok: false, issues: toIssues(validate) });
    },
  };
}

function toIssues(validate: ValidateFunction): ValidationIssue[] {
  return (validate.errors ?? []).map(toIssue);
}

function toIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: `${error.instancePath}/${escapePointer(String(params.missingProperty))}`,
        code: 'required',
        message: 'is required',
      };
    case 'additionalProperties':
      return {
        path: `${error.instancePath}/${escapePointer(String(params.additionalProperty))}`,
        code: 'not-allowed',
        message: 'is not an allowed property',
      };
    case 'enum':
      return {
        path: error.instancePath,
        code: 'enum',
        message: `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    default:
      return { path: error.instancePath, code: error.keyword, message: error.message ?? 'is invalid' };
  }
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
