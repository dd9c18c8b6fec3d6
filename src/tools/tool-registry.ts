import { ToolDefinitionError } from '../core/errors/tool-definition-error.js';
import type { AnyTool } from './define-tool.js';

/** The tools one execution may call, by name. Immutable once created. */
export interface ToolRegistry {
  readonly kind: 'tool-registry';
  get(name: string): AnyTool | undefined;
  /** Registered names, in registration order. */
  names(): readonly string[];
  list(): readonly AnyTool[];
}

export function createToolRegistry(tools: Iterable<AnyTool>): ToolRegistry {
  const byName = new Map<string, AnyTool>();
  for (const tool of tools) {
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') {
      throw new ToolDefinitionError({
        toolName: '',
        message: 'createToolRegistry expects tools made by defineTool',
      });
    }
    if (byName.has(tool.name)) {
      throw new ToolDefinitionError({
        toolName: tool.name,
        message: `Tool "${tool.name}" is registered twice: tool names must be unique. Rename one of them.`,
      });
    }
    byName.set(tool.name, tool);
  }
  const names = Object.freeze([...byName.keys()]);
  const list = Object.freeze([...byName.values()]);
  return Object.freeze({
    kind: 'tool-registry' as const,
    get: (name: string) => byName.get(name),
    names: () => names,
    list: () => list,
  });
}

export function toToolRegistry(tools: ToolRegistry | Iterable<AnyTool>): ToolRegistry {
  return isToolRegistry(tools) ? tools : createToolRegistry(tools);
}

function isToolRegistry(value: unknown): value is ToolRegistry {
  return (
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'tool-registry'
  );
}
