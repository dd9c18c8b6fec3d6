import type { ToolDefinition } from '../../tools/define-tool.js';
import type { McpToolResult } from './read-call-result.js';

/**
 * What `options.tool` may set per tool, over what toolwarden made of the server's definition (its
 * `effect`, its retries): approval for destructive tools, a timeout, limits, loop hints, idempotency, and an `output` contract of
 * the caller's own in place of the one made from the tool's `outputSchema`.
 */
export type McpToolSettings = Partial<
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
>;
