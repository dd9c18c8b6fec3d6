// toolwarden/mcp: the tools of any MCP server guarded by toolwarden's chain, and the proxy's pieces. The
// MCP SDK (@modelcontextprotocol/sdk@1) is an optional peer dependency.
export {};
