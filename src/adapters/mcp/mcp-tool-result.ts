/** One content part of a result, as the server sent it. */
export type McpContentPart = McpToolResult['content'][number];

/** A `CallToolResult`, read: what `fromMcpClient`'s tools return (the value the caller gets). */
export interface McpToolResult {
  /**
   * Every content part, as the server sent it: `text`, `image`, `audio`, `resource_link`, `resource` (an
   * embedded resource), or a kind a later revision adds (kept, summarized for the model).
   */
  readonly content: readonly { readonly type: string; readonly [key: string]: unknown }[];
  /** Any JSON value (an object in 2025-11-25; any value since 2026-07-28); absent when the server sent none. */
  readonly structuredContent?: unknown;
  readonly isError: boolean;
  readonly _meta?: unknown;
}
