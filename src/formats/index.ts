// toolwarden/formats: tools to and from the wire formats of OpenAI, Anthropic and MCP, and the name map
// that keeps a provider-legal name for each original name.
export type { AnthropicTool } from './anthropic-tool.js';
export { fromAnthropicTool, fromAnthropicTools } from './from-anthropic-tool.js';
export { fromMcpTool, fromMcpTools } from './from-mcp-tool.js';
export { fromOpenAiChatCompletion } from './from-openai-chat-completion.js';
export { fromOpenAiTool, fromOpenAiTools } from './from-openai-tool.js';
export type {
  ImportedToolHandler,
  ImportedToolSettings,
  ImportedTools,
  ImportToolOptions,
  ImportToolsOptions,
} from './import-tool-spec.js';
export type { McpTool, McpToolAnnotations } from './mcp-tool.js';
export type { OpenAiChatCompletion, OpenAiChatMessage, OpenAiChatToolCall } from './openai-chat.js';
export type { OpenAiTool } from './openai-tool.js';
export { toAnthropicTool } from './to-anthropic-tool.js';
export { type ToMcpToolOptions, toMcpTool } from './to-mcp-tool.js';
export { toOpenAiChatMessages } from './to-openai-chat-messages.js';
export { type ToOpenAiToolOptions, toOpenAiTool } from './to-openai-tool.js';
export { type ToolFormat, ToolFormatError, type ToolFormatErrorOptions } from './tool-format-error.js';
export { createToolNameMap, type ToolNameMap } from './tool-name-map.js';
