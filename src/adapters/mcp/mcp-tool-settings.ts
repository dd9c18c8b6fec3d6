import type { FromMcpClientOptions } from './from-mcp-client-options.js';

/** What `options.tool` may set per tool (see `FromMcpClientOptions['tool']`). */
export type McpToolSettings = NonNullable<ReturnType<NonNullable<FromMcpClientOptions['tool']>>>;
