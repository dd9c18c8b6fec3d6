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
  readDefinitionList,
  readDefinitionObject,
  readDescription,
  readObjectSchema,
  readToolName,
} from './read-tool-fields.js';
import { ToolFormatError } from './tool-format-error.js';

/**
 * Reads an Anthropic client tool (`AnthropicTool`: `{ name, description?, input_schema }`). Server tools
 * (`type: "web_search_20250305"` and the like) run at Anthropic and cannot be imported. The format says
 * nothing about side effects (imports default to `unknown`); a missing description becomes the name.
 */
export function readAnthropicTool(definition: unknown): ImportedToolSpec {
  const tool = readDefinitionObject('anthropic', definition);
  const originalName = readToolName('anthropic', tool.name, 'name');
  if (tool.type !== undefined && tool.type !== 'custom') {
    throw new ToolFormatError({
      format: 'anthropic',
      toolName: originalName,
      path: 'type',
      problem:
        'only client tools (no type, or type "custom") can be imported: server tools run at Anthropic.',
    });
  }
  if (tool.input_schema === undefined) {
    throw new ToolFormatError({
      format: 'anthropic',
      toolName: originalName,
      path: 'input_schema',
      problem: 'input_schema is required (a JSON Schema object).',
    });
  }
  const inputSchema = readObjectSchema(
    'anthropic',
    originalName,
    tool.input_schema,
    'input_schema',
    undefined,
  );
  return {
    format: 'anthropic',
    originalName,
    description: readDescription('anthropic', originalName, tool.description, 'description', originalName),
    inputSchema: inputSchema ?? {},
    outputSchema: undefined,
    effect: undefined,
  };
}

/** Imports one Anthropic tool (see `readAnthropicTool`); `execute` runs it. */
export function fromAnthropicTool<TResult>(
  definition: unknown,
  options: ImportToolOptions<TResult>,
): Tool<unknown, TResult> {
  return importToolSpec(readAnthropicTool(definition), options);
}

/** Imports a list of Anthropic tools under one name map; each calls `handler` with its original name. */
export function fromAnthropicTools(
  definitions: readonly unknown[],
  options: ImportToolsOptions,
): ImportedTools {
  checkImportOptions('anthropic', options, 'handler');
  return importToolSpecs(readDefinitionList('anthropic', definitions, readAnthropicTool), options);
}
