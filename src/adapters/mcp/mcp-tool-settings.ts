import type { ToolDefinition } from '../../tools/define-tool.js';
import type { McpToolResult } from './read-call-result.js';

/**
 * What `options.tool` may set per tool, over what toolwarden made of the server's definition (its
 * `effect`, its retries): approval for destructive tools, a timeout, limits, loop hints, idempotency.
 */
export type McpToolSettings = Partial<
  Pick<
    ToolDefinition<unknown, McpToolResult>,
    | 'effect'
    | 'timeoutMs'
    | 'retries'
    | 'maxCallsPerTurn'
    | 'maxResultChars'
    | 'returnDirect'
    | 'showErrorMessages'
    | 'onContractViolation'
    | 'formatResult'
    | 'beforeToolCall'
    | 'authorize'
    | 'needsApproval'
    | 'loop'
    | 'idempotency'
  >
>;
