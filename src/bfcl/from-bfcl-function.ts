import {
  checkImportOptions,
  type ImportedTools,
  type ImportToolOptions,
  type ImportToolsOptions,
  importToolSpec,
  importToolSpecs,
} from '../formats/import-tool-spec.js';
import { readDefinitionList } from '../formats/read-tool-fields.js';
import type { Tool } from '../tools/define-tool.js';
import { type ReadBfclFunctionOptions, readBfclFunction } from './read-bfcl-function.js';

/**
 * Imports one BFCL function as a tool (see readBfclFunction and normalizeBfclSchema), registered under
 * its provider-legal name (`math.sqrt` → `math_sqrt`); `execute` runs it.
 */
export function fromBfclFunction<TResult>(
  definition: unknown,
  options: ImportToolOptions<TResult> & ReadBfclFunctionOptions,
): Tool<unknown, TResult> {
  return importToolSpec(readBfclFunction(definition, languageOf(options)), options);
}

/**
 * Imports the functions of one BFCL entry (or a func-doc file) under one name map; each tool calls
 * `handler` with its original, possibly dotted, name.
 */
export function fromBfclFunctions(
  definitions: readonly unknown[],
  options: ImportToolsOptions & ReadBfclFunctionOptions,
): ImportedTools {
  checkImportOptions('bfcl', options, 'handler');
  const read = (definition: unknown) => readBfclFunction(definition, languageOf(options));
  return importToolSpecs(readDefinitionList('bfcl', definitions, read), options);
}

function languageOf(options: ReadBfclFunctionOptions | undefined): ReadBfclFunctionOptions {
  const language = typeof options === 'object' && options !== null ? options.language : undefined;
  return language === undefined ? {} : { language };
}
