import type { ToolSpec } from '../core/model.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolEffect } from '../tools/tool-effect.js';
import type { McpTool, McpToolAnnotations } from './mcp-tool.js';
import { readExportedTool } from './read-exported-tool.js';
import { describeType } from './read-tool-fields.js';
import { ToolFormatError } from './tool-format-error.js';
import type { ToolNameMap } from './tool-name-map.js';

/** Options of `toMcpTool`. */
export interface ToMcpToolOptions {
  /** Gives the tool its original name back (the map it was imported with). */
  readonly nameMap?: ToolNameMap;
  /** A name for people (`title`). */
  readonly title?: string;
  /** Hints a tool does not carry (`destructiveHint`, `idempotentHint`, `openWorldHint`, `title`). */
  readonly annotations?: McpToolAnnotations;
}

/**
 * The MCP format of a tool. `readOnlyHint` and `idempotentHint` always follow the tool's effect (`read` → read-only; unknown: no hint), whatever
 * `options.annotations` says (a `ToolSpec` has no effect: then only the annotations given); the tool's output contract, when it has a JSON Schema, is the `outputSchema`.
 */
export function toMcpTool(tool: AnyTool | ToolSpec, options?: ToMcpToolOptions): McpTool {
  const exported = readExportedTool<ToMcpToolOptions>('mcp', tool, options);
  const { nameMap, title, annotations } = exported.options;
  if (nameMap !== undefined && typeof nameMap?.toOriginal !== 'function') {
    throw new ToolFormatError({
      format: 'mcp',
      toolName: exported.name,
      path: 'options.nameMap',
      problem: 'nameMap must be a map made by createToolNameMap.',
    });
  }
  if (annotations !== undefined && (typeof annotations !== 'object' || annotations === null)) {
    throw new ToolFormatError({
      format: 'mcp',
      toolName: exported.name,
      path: 'options.annotations',
      problem: `annotations must be an object, got ${describeType(annotations)}.`,
    });
  }
  return {
    name: nameMap?.toOriginal(exported.name) ?? exported.name,
    ...(typeof title === 'string' ? { title } : {}),
    description: exported.description,
    inputSchema: exported.inputSchema,
    ...(exported.outputSchema === undefined ? {} : { outputSchema: exported.outputSchema }),
    annotations: {
      ...annotations,
      ...hintsOf(exported.effect),
    },
  };
}

/** The hints that follow from an effect; an unknown effect claims nothing (MCP's defaults then apply). */
function hintsOf(effect: ToolEffect | undefined): McpToolAnnotations {
  switch (effect) {
    case undefined:
    case 'unknown':
      return {};
    case 'read':
      return { readOnlyHint: true };
    case 'write':
      return { readOnlyHint: false };
    case 'idempotent-write':
      return { readOnlyHint: false, idempotentHint: true };
    default: {
      const never: never = effect;
      return never;
    }
  }
}
