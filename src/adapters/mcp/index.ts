// toolwarden/mcp: the tools of any MCP server guarded by toolwarden's chain, and the proxy in front of one.
// The MCP SDK (@modelcontextprotocol/sdk@1) is an optional peer dependency: nothing here imports it when it
// loads (the proxy imports the SDK when it starts).

// The proxy's SDK-independent core: its config file, the per-session decisions, its results.
export * from '../../mcp-proxy/index.js';
export { classifyMcpFailure } from './classify-mcp-failure.js';
export { describePart, formatMcpResult } from './format-mcp-result.js';
export {
  type FromMcpClientOptions,
  fromMcpClient,
  type McpTools,
  type SkippedMcpTool,
} from './from-mcp-client.js';
export { McpListError } from './list-mcp-tools.js';
export { McpCallError, type McpFailureKind } from './mcp-call-error.js';
export type { McpClientPort, McpRequestOptions } from './mcp-client-port.js';
export {
  createMcpProxy,
  type McpProxy,
  type McpProxyOptions,
  type McpProxyServeOptions,
  type McpProxyUpstream,
  type StartMcpProxyOptions,
  startMcpProxy,
} from './mcp-proxy-server.js';
export type { McpToolHints, McpToolInfo } from './mcp-tool-info.js';
export type { McpToolSettings } from './mcp-tool-settings.js';
export type { McpProxySession } from './proxy-session.js';
export type { McpContentPart, McpToolResult } from './read-call-result.js';
export { type SdkV1ClientLike, sdkV1Port } from './sdk-v1-port.js';
export { type SdkV2ClientLike, sdkV2Port } from './sdk-v2-port.js';
export type { McpClientLike } from './to-mcp-client-port.js';
