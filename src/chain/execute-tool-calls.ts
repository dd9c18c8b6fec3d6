export type { ExecutionRequest } from './execute-with-runtime.js';

import type { ExecutionRequest } from './execute-with-runtime.js';
import type { ToolExecutionResult } from './tool-execution-result.js';
import { type RuntimeInput, runtimeOf } from './tool-runtime.js';

/** A runtime (`{ runtime, ... }`), or tools and a policy for this one execution (`{ tools, ...policy, ... }`). */
export type ExecuteToolCallsInput = ExecutionRequest & RuntimeInput;

/**
 * Executes the tool calls of one model response and appends one tool message per call, in the model's
 * order. Failures the model can act on become tool messages. A fatal failure throws `ToolExecutionError`,
 * a limit under the `throw` policy `ToolCallLimitExceededError`, a caller callback that fails
 * `CallbackError`: each carries the partial result. When the caller's signal aborts, the promise rejects
 * with the signal's reason. Calls that wait for a decision (`needsApproval`, a `beforeToolCall` hook that
 * interrupts) do not run: the result lists them as `interrupted`, and the other calls of the response run.
 * Handing back the returned `messages` with the same response and `decisions` runs the waiting ones. The one-off form (`tools` and a policy) builds a runtime per call: build
 * one with `createToolRuntime` to check the policy once and count a growing history in O(1).
 */
export async function executeToolCalls(input: ExecuteToolCallsInput): Promise<ToolExecutionResult> {
  return runtimeOf(input).executeToolCalls(input);
}
