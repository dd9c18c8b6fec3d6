import { ToolwardenError } from '../../core/errors/toolwarden-error.js';
import type { McpToolResult } from './mcp-tool-result.js';

const MARKER = Symbol.for('toolwarden.error.McpCallError');

/** A failed `tools/call` (`MCP_CALL_ERROR`): the original failure as `cause`, the JSON-RPC (or v2 SDK) code as `rpcCode`. */
export class McpCallError extends ToolwardenError<'MCP_CALL_ERROR'> {
  override readonly name = 'McpCallError';
  /**
   * What went wrong with a `tools/call`, by who can do something about it:
   * - `tool`: the tool ran and answered `isError: true` (its text is for the model; this error is the cause
   *   of the `ToolInputError` the model's message comes from);
   * - `protocol`: the server answered with a JSON-RPC error of its own (`-32602` invalid params, `-32603`
   *   internal error, a code of the server's): its text is the server's internals (a database's message, a
   *   stack), withheld from the model unless `showErrorMessages` opens it;
   * - `transient`: no answer in time, or the connection is gone (`-32001`, `-32000`, the v2 SDK's
   *   `REQUEST_TIMEOUT`, `CONNECTION_CLOSED`, `SEND_FAILED`, `NOT_CONNECTED`): may pass when tried again;
   * - `broken`: the exchange itself is wrong (`-32700` parse error, `-32600` invalid request, `-32601` no
   *   such method, a result that is not a `CallToolResult`): a defect, not the model's to work around.
   */
  readonly kind: 'tool' | 'protocol' | 'transient' | 'broken';
  /** The error's `code` as the SDK gave it (a JSON-RPC number, or a v2 `SdkErrorCode` string). */
  readonly rpcCode: number | string | undefined;
  /** The tool's name on the server. */
  readonly toolName: string;
  /** The `isError` result, for `kind: 'tool'`: every content part, as the server sent it. */
  readonly result: McpToolResult | undefined;
  readonly [MARKER] = true;

  constructor(options: {
    readonly kind: McpCallError['kind'];
    readonly toolName: string;
    readonly message: string;
    readonly rpcCode?: number | string | undefined;
    readonly result?: McpToolResult;
    readonly cause?: unknown;
  }) {
    super({ code: 'MCP_CALL_ERROR', message: options.message, cause: options.cause });
    this.kind = options.kind;
    this.toolName = options.toolName;
    this.rpcCode = options.rpcCode;
    this.result = options.result;
  }

  /** True for an `McpCallError` of any copy of toolwarden (a marker, not the prototype). */
  static override isInstance(value: unknown): value is McpCallError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}

/** How a `tools/call` failed: `McpCallError['kind']`. */
export type McpFailureKind = McpCallError['kind'];
