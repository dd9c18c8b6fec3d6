// toolwarden/mcp: the tools of any MCP server guarded by toolwarden's chain, and the proxy in front of one.
// The MCP SDK (@modelcontextprotocol/sdk@1) is an optional peer dependency: nothing here imports it when it
// loads (the proxy imports the SDK when it starts). The proxy's core (its decisions, refusals and config
// reader, in `proxy/`) is internal: the CLI imports it by path.

export {
  type FromMcpClientOptions,
  fromMcpClient,
  type McpTools,
} from './from-mcp-client.js';
export { McpListError } from './list-mcp-tools.js';
export { McpCallError } from './mcp-call-error.js';
export type { McpClientPort } from './mcp-client-port.js';
export type { McpConversationCall, McpProxy, McpProxyConversation } from './mcp-proxy.js';
export { createMcpProxy } from './mcp-proxy-server.js';
export type { McpToolInfo } from './mcp-tool-info.js';
export type { McpToolResult } from './mcp-tool-result.js';
export { type ProxyConfig, parseProxyConfig } from './proxy/proxy-config.js';
export { ProxyConfigError } from './proxy/proxy-config-error.js';
export type {
  PinsConfig,
  RateLimitsConfig,
  SecretAction,
  SecretsConfig,
} from './proxy/proxy-security-config.js';
export {
  type McpProxyHttpOptions,
  type McpProxyHttpServer,
  serveMcpProxyHttp,
} from './serve-mcp-proxy-http.js';
