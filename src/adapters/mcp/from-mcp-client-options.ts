import type { SchemaCompiler } from '../../schema/schema-compiler.js';
import type { AnyTool, ToolDefinition } from '../../tools/define-tool.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import type { McpToolResult } from './mcp-tool-result.js';

/** `fromMcpClient`'s options. */
export interface FromMcpClientOptions {
  /** Believe the server's annotations (see `describeMcpTool`); default `DEFAULT_MCP_TRUSTED` (false). */
  readonly trusted?: boolean;
  /**
   * Per-tool settings over what toolwarden made of the server's definition (its `effect`, its retries):
   * approval for `info.destructive` tools, a timeout, limits, loop hints, idempotency, and an `output`
   * contract of the caller's own in place of the one made from the tool's `outputSchema`.
   */
  readonly tool?: (
    info: McpToolInfo,
  ) =>
    | Partial<
        Pick<
          ToolDefinition<unknown, McpToolResult>,
          | 'effect'
          | 'output'
          | 'timeoutMs'
          | 'retries'
          | 'maxCallsPerTurn'
          | 'maxResultChars'
          | 'returnDirect'
          | 'showErrorMessages'
          | 'onContractViolation'
          | 'formatResult'
          | 'decide'
          | 'needsApproval'
          | 'loop'
          | 'idempotency'
        >
      >
    | undefined;
  /** What the model sees of a successful result (default `formatMcpResult`). */
  readonly formatResult?: (result: McpToolResult) => string;
  /** Opens the server's JSON-RPC error texts to the model (redacted, cut); default: withheld. */
  readonly showErrorMessages?: boolean | ((error: unknown) => boolean);
  /** The SDK's own request timeout per `tools/call`, in milliseconds (the chain's `timeoutMs` aborts too). */
  readonly requestTimeoutMs?: number;
  /** Pages of `tools/list` read at most (default `DEFAULT_MCP_MAX_LIST_PAGES`). */
  readonly maxPages?: number;
  /** Tools kept at most (default `DEFAULT_MCP_MAX_TOOLS`); the rest are skipped. */
  readonly maxTools?: number;
  /** Listen for `notifications/tools/list_changed` and refresh (default true). */
  readonly listen?: boolean;
  /** After each refresh a notification started: the new tools, or why the list could not be read. */
  readonly onToolsChanged?: (change: { tools: readonly AnyTool[] } | { error: unknown }) => void;
  /** Aborts the first listing. */
  readonly signal?: AbortSignal;
  readonly schemaCompiler?: SchemaCompiler;
}
