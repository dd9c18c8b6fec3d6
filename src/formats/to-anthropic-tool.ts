import type { ToolSpec } from '../core/model.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { AnthropicTool } from './anthropic-tool.js';
import { readExportedTool } from './read-exported-tool.js';

/** The Anthropic format of a tool (or of the `ToolSpec` a model receives), under its registered (provider-legal) name. */
export function toAnthropicTool(tool: AnyTool | ToolSpec): AnthropicTool {
  const exported = readExportedTool('anthropic', tool, undefined);
  return { name: exported.name, description: exported.description, input_schema: exported.inputSchema };
}
