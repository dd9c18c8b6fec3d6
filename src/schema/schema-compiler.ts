import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../core/json-schema.js';
import type { ValidationIssue, ValidationOutcome } from '../core/validation-issue.js';
import { isAnnotationKeyword } from './annotation-keywords.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object on some setups.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/** A JSON Schema compiled to a check of one value. */
export type CompiledValidator = (value: unknown) => ValidationOutcome<unknown>;

/**
 * Compiles JSON Schemas. Every tool uses `defaultSchemaCompiler()` unless given one, so defining many tools
 * costs one Ajv instance, not one each (an instance costs milliseconds to create and to compile its
 * meta-schema; a schema then compiles in well under one).
 *
 * Schemas compiled by one compiler never see each other: each compile leaves the Ajv instance as it found
 * it (no schema registered under its `$id`, nothing cached), so two tools may use the same `$id` with
 * different schemas, and one tool's `$ref` cannot reach another tool's schema.
 */
export interface SchemaCompiler {
  /**
   * Throws when the schema is invalid: Ajv's error, or the first strict-mode problem, such as an unknown
   * keyword that is not an annotation (see annotation-keywords.ts: `example`, `x-*` and the like pass).
   */
  compile(schema: JsonSchema): CompiledValidator;
}

/**
 * Ajv strict mode, but reported (`strictSchema: 'log'`) instead of thrown, so a compile can tell an
 * annotation (`x-internal`, `example`) from a mistake without walking or copying the user's schema: the
 * first report that is not an annotation is thrown, as Ajv would have. `addUsedSchema: false` keeps
 * schemas with an `$id` out of the instance's registry.
 */
const AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  strictSchema: 'log',
  strictTypes: false,
  strictTuples: false,
  addUsedSchema: false,
} as const;

/** Schemas one Ajv instance compiles before it is replaced: Ajv keeps every compiled function it made. */
const COMPILES_PER_INSTANCE = 100;

const UNKNOWN_KEYWORD = /^strict mode: unknown keyword: "(.*)"$/s;

type Dialect = 'draft-07' | '2019-09' | '2020-12';

/** The dialect a schema declares with `$schema` (draft-07, the providers' default, when it declares none). */
function dialectOf(schema: JsonSchema): Dialect {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  return 'draft-07';
}

/** One Ajv instance, what it held before any user schema, and what it reported during the current compile. */
interface Instance {
  readonly ajv: Ajv;
  readonly refs: ReadonlyMap<string, unknown>;
  readonly schemas: ReadonlyMap<string, unknown>;
  readonly reports: string[];
  compiles: number;
}

function createInstance(dialect: Dialect): Instance {
  const reports: string[] = [];
  const logger = { log() {}, warn: (message: unknown) => reports.push(String(message)), error() {} };
  const options = { ...AJV_OPTIONS, logger };
  const ajv =
    dialect === '2020-12'
      ? new Ajv2020(options)
      : dialect === '2019-09'
        ? new Ajv2019(options)
        : new Ajv(options);
  addFormats(ajv);
  return {
    ajv,
    refs: new Map(Object.entries(ajv.refs)),
    schemas: new Map(Object.entries(ajv.schemas)),
    reports,
    compiles: 0,
  };
}

/** Puts back what a compile changed: the schema's cache entry, and ids that nested `$id`s registered. */
function restore(instance: Instance, schema: JsonSchema): void {
  const { ajv } = instance;
  try {
    ajv.removeSchema(schema);
  } catch {
    // An `$id` that is not a string (Ajv refused the schema for it): the cache entry is removed already.
  }
  restoreRecord(ajv.refs as Record<string, unknown>, instance.refs);
  restoreRecord(ajv.schemas as Record<string, unknown>, instance.schemas);
}

function restoreRecord(record: Record<string, unknown>, saved: ReadonlyMap<string, unknown>): void {
  for (const key of Object.keys(record)) if (!saved.has(key)) delete record[key];
  for (const [key, value] of saved) if (record[key] !== value) record[key] = value;
}

export function createSchemaCompiler(): SchemaCompiler {
  // One Ajv per dialect, made when first needed (MCP servers declare 2020-12; most schemas declare nothing).
  const instances = new Map<Dialect, Instance>();
  const instanceFor = (dialect: Dialect): Instance => {
    let instance = instances.get(dialect);
    if (instance === undefined || instance.compiles >= COMPILES_PER_INSTANCE) {
      instance = createInstance(dialect);
      instances.set(dialect, instance);
    }
    return instance;
  };
  return {
    compile(schema) {
      const instance = instanceFor(dialectOf(schema));
      instance.compiles++;
      instance.reports.length = 0;
      let validate: ValidateFunction;
      try {
        validate = instance.ajv.compile(schema);
      } finally {
        restore(instance, schema);
      }
      const mistake = instance.reports.find((report) => !isAnnotationReport(report));
      instance.reports.length = 0;
      if (mistake !== undefined) throw new Error(mistake);
      return (value) => (validate(value) ? { ok: true, value } : { ok: false, issues: toIssues(validate) });
    },
  };
}

function isAnnotationReport(report: string): boolean {
  const keyword = UNKNOWN_KEYWORD.exec(report)?.[1];
  return keyword !== undefined && isAnnotationKeyword(keyword);
}

let shared: SchemaCompiler | undefined;

/**
 * The compiler tools share when none is given: created on first use (importing the package creates
 * nothing), then kept for the life of the process. Safe to share, since compiles do not see each other.
 */
export function defaultSchemaCompiler(): SchemaCompiler {
  shared ??= createSchemaCompiler();
  return shared;
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
