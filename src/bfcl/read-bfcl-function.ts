import { findSchemaProblem } from '../formats/find-schema-problem.js';
import type { ImportedToolSpec } from '../formats/imported-tool-spec.js';
import {
  describeType,
  readDefinitionObject,
  readDescription,
  readToolName,
} from '../formats/read-tool-fields.js';
import { ToolFormatError } from '../formats/tool-format-error.js';
import type { BfclLanguage } from './bfcl-function.js';
import type { BfclNote } from './bfcl-note.js';
import { normalizeBfclSchema } from './normalize-bfcl-schema.js';

const LANGUAGES: ReadonlySet<unknown> = new Set<BfclLanguage>(['python', 'java', 'javascript']);

/** How a BFCL function definition is read: the language of its category. */
export interface ReadBfclFunctionOptions {
  /** `java` and `javascript` for the simple_java and simple_javascript categories (default `python`). */
  readonly language?: BfclLanguage;
}

/** A BFCL function read as a tool spec, with every change the normalization made. */
export interface BfclToolSpec extends ImportedToolSpec {
  readonly notes: readonly BfclNote[];
}

/**
 * Reads a BFCL function definition (`BfclFunction`): its `parameters` and `response` become JSON Schema by
 * the rules of normalizeBfclSchema, and `response` is the output contract. BFCL says nothing about side
 * effects, so `effect` is left undefined (imports default to `unknown`). Refuses, with a ToolFormatError,
 * only what is not a function at all: no name, a name over 256 characters, `parameters` or `response`
 * that is not an object, `__proto__` keys, nesting deeper than MAX_SCHEMA_DEPTH.
 */
export function readBfclFunction(definition: unknown, options: ReadBfclFunctionOptions = {}): BfclToolSpec {
  const fn = readDefinitionObject('bfcl', definition);
  const originalName = readToolName('bfcl', fn.name, 'name');
  for (const part of ['parameters', 'response'] as const) {
    const schema = fn[part];
    if (schema === undefined) continue;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new ToolFormatError({
        format: 'bfcl',
        toolName: originalName,
        path: part,
        problem: `${part} must be an object, got ${describeType(schema)}.`,
      });
    }
    const problem = findSchemaProblem(schema);
    if (problem !== undefined) {
      throw new ToolFormatError({
        format: 'bfcl',
        toolName: originalName,
        path: problem.path === '' ? part : `${part}.${problem.path}`,
        problem: problem.message,
      });
    }
  }
  const language = options.language ?? 'python';
  if (!LANGUAGES.has(language)) {
    throw new ToolFormatError({
      format: 'bfcl',
      toolName: originalName,
      path: 'options.language',
      problem: "language must be 'python', 'java' or 'javascript'.",
    });
  }
  const input = normalizeBfclSchema(fn.parameters, { role: 'parameters', language });
  const output =
    fn.response === undefined ? undefined : normalizeBfclSchema(fn.response, { role: 'response' });
  return {
    format: 'bfcl',
    originalName,
    description: readDescription('bfcl', originalName, fn.description, 'description', originalName),
    inputSchema: input.schema,
    outputSchema: output?.schema,
    effect: undefined,
    notes: [
      ...input.notes.map((note) => ({ ...note, path: prefix('parameters', note.path) })),
      ...(output?.notes ?? []).map((note) => ({ ...note, path: prefix('response', note.path) })),
    ],
  };
}

function prefix(part: string, path: string): string {
  return path === '' ? part : `${part}.${path}`;
}
