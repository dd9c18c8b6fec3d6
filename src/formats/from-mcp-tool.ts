import type { Tool, ToolEffect } from '../tools/define-tool.js';
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
  describeType,
  readDefinitionList,
  readDefinitionObject,
  readDescription,
  readObjectSchema,
  readToolName,
} from './read-tool-fields.js';
import { ToolFormatError } from './tool-format-error.js';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/**
 * Reads an MCP tool (`McpTool`: `{ name, title?, description?, inputSchema, outputSchema?, annotations? }`).
 * - `annotations.readOnlyHint: true` makes a `read` tool; `idempotentHint: true` an `idempotent-write`;
 *   `readOnlyHint: false` or a `destructiveHint` a `write`; no hints at all an `unknown` effect (see
 *   docs/effects.md): nobody said, so the cautious defaults;
 * - `outputSchema` becomes the tool's output contract: the tool's result is its `structuredContent`;
 * - a missing description becomes the title (`title`, then `annotations.title`), else the name.
 * Names MCP allows and providers reject (`files.read`, 129 characters, ...) are mapped by the name map.
 */
export function readMcpTool(definition: unknown): ImportedToolSpec {
  const tool = readDefinitionObject('mcp', definition);
  const originalName = readToolName('mcp', tool.name, 'name');
  const annotations = tool.annotations;
  if (
    annotations !== undefined &&
    (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations))
  ) {
    throw new ToolFormatError({
      format: 'mcp',
      toolName: originalName,
      path: 'annotations',
      problem: `annotations must be an object, got ${describeType(annotations)}.`,
    });
  }
  const hints = (annotations ?? {}) as Readonly<Record<string, unknown>>;
  for (const hint of HINTS) {
    if (hints[hint] !== undefined && typeof hints[hint] !== 'boolean') {
      throw new ToolFormatError({
        format: 'mcp',
        toolName: originalName,
        path: `annotations.${hint}`,
        problem: `${hint} must be true or false, got ${describeType(hints[hint])}.`,
      });
    }
  }
  if (tool.inputSchema === undefined) {
    throw new ToolFormatError({
      format: 'mcp',
      toolName: originalName,
      path: 'inputSchema',
      problem: 'inputSchema is required (a JSON Schema object).',
    });
  }
  const title = [tool.title, hints.title].find((t): t is string => typeof t === 'string' && t.trim() !== '');
  const effect = effectOfHints(hints);
  return {
    format: 'mcp',
    originalName,
    description: readDescription('mcp', originalName, tool.description, 'description', title ?? originalName),
    inputSchema: readObjectSchema('mcp', originalName, tool.inputSchema, 'inputSchema', undefined) ?? {},
    outputSchema: readObjectSchema('mcp', originalName, tool.outputSchema, 'outputSchema', undefined),
    effect,
  };
}

/** Imports one MCP tool (see `readMcpTool`); `execute` runs it (for example a `tools/call` to the server). */
export function fromMcpTool<TResult>(
  definition: unknown,
  options: ImportToolOptions<TResult>,
): Tool<unknown, TResult> {
  return importToolSpec(readMcpTool(definition), options);
}

/** Imports an MCP `tools/list` result's tools under one name map; each calls `handler` with its original name. */
export function fromMcpTools(definitions: readonly unknown[], options: ImportToolsOptions): ImportedTools {
  checkImportOptions('mcp', options, 'handler');
  return importToolSpecs(readDefinitionList('mcp', definitions, readMcpTool), options);
}

/** The effect a definition's own hints declare; no hint about effects declares nothing. */
function effectOfHints(hints: Readonly<Record<string, unknown>>): ToolEffect {
  if (hints.readOnlyHint === true) return 'read';
  if (hints.idempotentHint === true) return 'idempotent-write';
  return hints.readOnlyHint === false || typeof hints.destructiveHint === 'boolean' ? 'write' : 'unknown';
}
