export { MAX_ORIGINAL_TOOL_NAME_LENGTH, MAX_SCHEMA_DEPTH } from '../defaults.js';
export type { AnthropicTool } from './anthropic-tool.js';
export { fromAnthropicTool, fromAnthropicTools, readAnthropicTool } from './from-anthropic-tool.js';
export { fromMcpTool, fromMcpTools, readMcpTool } from './from-mcp-tool.js';
export { fromOpenAiTool, fromOpenAiTools, readOpenAiTool } from './from-openai-tool.js';
export type {
  ImportedToolHandler,
  ImportedToolSettings,
  ImportedTools,
  ImportToolOptions,
  ImportToolsOptions,
} from './import-tool-spec.js';
export { importToolSpec, importToolSpecs } from './import-tool-spec.js';
export type { ImportedToolSpec } from './imported-tool-spec.js';
export type { McpTool, McpToolAnnotations } from './mcp-tool.js';
export type { OpenAiTool } from './openai-tool.js';
export { toAnthropicTool } from './to-anthropic-tool.js';
export { type ToMcpToolOptions, toMcpTool } from './to-mcp-tool.js';
export { type ToOpenAiToolOptions, toOpenAiTool } from './to-openai-tool.js';
export { type ToolFormat, ToolFormatError, type ToolFormatErrorOptions } from './tool-format-error.js';
export { createToolNameMap, type ToolNameMap } from './tool-name-map.js';
