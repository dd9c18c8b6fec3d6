import type { SingleCallOptions, ToolCallInput, ToolCallOutcome } from './execute-single-call.js';
import { type RuntimeInput, runtimeOf } from './tool-runtime.js';

/** The call, its options, and a runtime or tools and a policy (the one-off form). */
export type ExecuteToolCallInput = SingleCallOptions & RuntimeInput & { readonly call: ToolCallInput };

/**
 * Runs one call through the whole chain with no history: the structured answer (`content`, `isError`,
 * `value`, `code`, `errorClass`, the full `result`) an MCP proxy needs, or the interruption of a call that
 * waits for a decision (`needsApproval`, or a `beforeToolCall` hook that interrupted). Without `counts`, no turn limits apply.
 */
export async function executeToolCall(input: ExecuteToolCallInput): Promise<ToolCallOutcome> {
  return runtimeOf(input).executeToolCall(input.call, input);
}
