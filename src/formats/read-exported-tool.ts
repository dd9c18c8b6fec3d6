import type { JsonSchema } from '../core/json-schema.js';
import type { ToolSpec } from '../core/model.js';
import type { AnyTool } from '../tools/define-tool.js';
import { isToolEffect, type ToolEffect } from '../tools/tool-effect.js';
import { describeType } from './read-tool-fields.js';
import { type ToolFormat, ToolFormatError } from './tool-format-error.js';

/** The parts of a tool every export needs, checked. */
export interface ExportedTool<TOptions> {
  readonly name: string;
  readonly description: string;
  /** Undefined for a `ToolSpec` (what the model port receives): it does not say. */
  readonly effect: ToolEffect | undefined;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
  readonly options: Partial<TOptions>;
}

/**
 * Checks that `tool` was made by `defineTool`, or is the `ToolSpec` a model is given (`request.tools`), and
 * has a JSON Schema providers can read (a Standard Schema without a JSON Schema conversion has none), and
 * that `options` is an object when given.
 */
export function readExportedTool<TOptions>(
  format: ToolFormat,
  tool: AnyTool | ToolSpec,
  options: unknown,
): ExportedTool<TOptions> {
  if (
    typeof tool !== 'object' ||
    tool === null ||
    typeof tool.name !== 'string' ||
    typeof tool.description !== 'string'
  ) {
    throw new ToolFormatError({
      format,
      path: '',
      problem: `only tools made by defineTool, or the ToolSpec a model receives, can be exported, got ${describeType(tool)}.`,
    });
  }
  const defined = 'effect' in tool;
  if (defined && !isToolEffect(tool.effect)) {
    throw new ToolFormatError({
      format,
      path: '',
      problem: `only tools made by defineTool can be exported, got ${describeType(tool)}.`,
    });
  }
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new ToolFormatError({
      format,
      toolName: tool.name,
      path: 'options',
      problem: `options must be an object, got ${describeType(options)} (write tools.map((tool) => ...) rather than passing the function to map).`,
    });
  }
  const inputSchema = defined ? tool.inputJsonSchema : (tool as ToolSpec).inputSchema;
  if (inputSchema === undefined || typeof inputSchema !== 'object' || inputSchema === null) {
    throw new ToolFormatError({
      format,
      toolName: tool.name,
      path: 'input',
      problem:
        'its input schema has no JSON Schema form (a Standard Schema without a converter): define it with a JSON Schema, or with zod 4 or valibot, which convert.',
    });
  }
  return {
    name: tool.name,
    description: tool.description,
    effect: defined ? tool.effect : undefined,
    inputSchema,
    outputSchema: defined ? tool.outputJsonSchema : undefined,
    options: (options ?? {}) as Partial<TOptions>,
  };
}
