import type { Tool } from '../tools/define-tool.js';
import {
  checkImportOptions,
  type ImportedTools,
  type ImportToolOptions,
  type ImportToolsOptions,
  importToolSpec,
  importToolSpecs,
} from './import-tool-spec.js';
import type { ImportedToolSpec } from './imported-tool-spec.js';
import {
  describeTag,
  readDefinitionList,
  readDefinitionObject,
  readDescription,
  readObjectSchema,
  readToolName,
} from './read-tool-fields.js';
import { ToolFormatError } from './tool-format-error.js';

const NO_PARAMETERS = Object.freeze({ type: 'object', properties: Object.freeze({}) });

/**
 * Reads an OpenAI function tool (`OpenAiTool`: `{ type: 'function', function: { name, description?,
 * parameters?, strict? } }`). The format says nothing about side effects, so `effect` is left undefined
 * (imports default to `unknown`). A missing description becomes the name; missing parameters, an object
 * without properties. `strict` is checked but not kept: pass it again when exporting.
 */
export function readOpenAiTool(definition: unknown): ImportedToolSpec {
  const outer = readDefinitionObject('openai', definition);
  if (outer.type !== 'function') {
    throw new ToolFormatError({
      format: 'openai',
      path: 'type',
      problem: `only function tools can be imported (type "function"), got ${describeTag(outer.type)}.`,
    });
  }
  const fn = outer.function;
  if (typeof fn !== 'object' || fn === null || Array.isArray(fn)) {
    throw new ToolFormatError({
      format: 'openai',
      path: 'function',
      problem: 'a function object is required.',
    });
  }
  const inner = fn as Readonly<Record<string, unknown>>;
  const originalName = readToolName('openai', inner.name, 'function.name');
  if (inner.strict !== undefined && typeof inner.strict !== 'boolean') {
    throw new ToolFormatError({
      format: 'openai',
      toolName: originalName,
      path: 'function.strict',
      problem: 'strict must be true or false.',
    });
  }
  const parameters = readObjectSchema(
    'openai',
    originalName,
    inner.parameters,
    'function.parameters',
    NO_PARAMETERS,
  );
  return {
    format: 'openai',
    originalName,
    description: readDescription(
      'openai',
      originalName,
      inner.description,
      'function.description',
      originalName,
    ),
    inputSchema: parameters ?? NO_PARAMETERS,
    outputSchema: undefined,
    effect: undefined,
  };
}

/** Imports one OpenAI function tool (see `readOpenAiTool`); `execute` runs it. */
export function fromOpenAiTool<TResult>(
  definition: unknown,
  options: ImportToolOptions<TResult>,
): Tool<unknown, TResult> {
  return importToolSpec(readOpenAiTool(definition), options);
}

/** Imports a list of OpenAI function tools under one name map; each calls `handler` with its original name. */
export function fromOpenAiTools(definitions: readonly unknown[], options: ImportToolsOptions): ImportedTools {
  checkImportOptions('openai', options, 'handler');
  return importToolSpecs(readDefinitionList('openai', definitions, readOpenAiTool), options);
}
