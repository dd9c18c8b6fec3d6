// toolwarden/mcp: the tools of any MCP server guarded by toolwarden's chain, and the proxy in front of one.
// The MCP SDK (@modelcontextprotocol/sdk@1) is an optional peer dependency: nothing here imports it when it
// loads (the proxy imports the SDK when it starts). The proxy's core (its decisions, refusals and config
// reader, in `proxy/`) is internal: the CLI imports it by path.

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
export type { McpContentPart, McpToolResult } from './mcp-tool-result.js';
export type { McpToolSettings } from './mcp-tool-settings.js';
export type { ProxiedTool } from './proxy/mcp-shapes.js';
export { type ProxyConfig, parseProxyConfig } from './proxy/proxy-config.js';
export { ProxyConfigError } from './proxy/proxy-config-error.js';
export type { McpProxySession } from './proxy-session.js';
export type { McpClientLike } from './to-mcp-client-port.js';
