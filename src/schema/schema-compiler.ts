import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
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

const AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  strictTypes: false,
  strictTuples: false,
  logger: false,
} as const;

type Dialect = 'draft-07' | '2019-09' | '2020-12';

/** The dialect a schema declares with `$schema` (draft-07, the providers' default, when it declares none). */
function dialectOf(schema: JsonSchema): Dialect {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  return 'draft-07';
}

export function createSchemaCompiler(): SchemaCompiler {
  // One Ajv per dialect, made when first needed (MCP servers declare 2020-12; most schemas declare nothing).
  const instances = new Map<Dialect, Ajv>();
  const ajvFor = (dialect: Dialect): Ajv => {
    let ajv = instances.get(dialect);
    if (ajv === undefined) {
      ajv =
        dialect === '2020-12'
          ? new Ajv2020(AJV_OPTIONS)
          : dialect === '2019-09'
            ? new Ajv2019(AJV_OPTIONS)
            : new Ajv(AJV_OPTIONS);
      addFormats(ajv);
      instances.set(dialect, ajv);
    }
    return ajv;
  };
  return {
    compile(schema) {
      const validate = ajvFor(dialectOf(schema)).compile(schema);
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
