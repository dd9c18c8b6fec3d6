/**
 * The few things `fromMcpClient` needs of an MCP client, free of any SDK class: one adapter per SDK line
 * (`sdkV1Port`, `sdkV2Port`) makes it, so a move to another line is an adapter change. Results are
 * returned as the server sent them (`unknown`): toolwarden reads them itself, hostile ones included.
 */
export interface McpClientPort {
  /** One page of `tools/list` (`{ tools, nextCursor? }`, unread). */
  listTools(
    cursor: string | undefined,
    /** What every request to the server is given: the call's signal (timeout, caller's abort) and a timeout. */
    options: {
      readonly signal: AbortSignal;
      /** Milliseconds, passed to the SDK's own request timeout; undefined: the SDK's default (60 s). */
      readonly timeout: number | undefined;
    },
  ): Promise<unknown>;
  /** One `tools/call`, its result unread and unvalidated (no output schema check of the SDK's own). */
  callTool(name: string, args: unknown, options: Parameters<McpClientPort['listTools']>[1]): Promise<unknown>;
  /** Calls `listener` on each `notifications/tools/list_changed`; returns the function that stops it. */
  onToolsChanged(listener: () => void): () => void;
}

/** What every request to the server is given: the call's signal and a timeout. */
export type McpRequestOptions = Parameters<McpClientPort['listTools']>[1];
