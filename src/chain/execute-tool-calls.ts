export type { ExecutionRequest } from './execute-with-runtime.js';

import type { ToolExecutionResult } from '../core/tool-execution-result.js';
import { checkOptionNames, type OptionNames, optionNameSet } from '../options/check-option-names.js';
import { CONTEXT_OPTIONS, type ExecutionContext, type ExecutionRequest } from './execute-with-runtime.js';
import { RUNTIME_INPUT_OPTIONS, type RuntimeInput, runtimeOf } from './runtime-input.js';

/** A runtime (`{ runtime, ... }`), or tools and a policy for this one execution (`{ tools, ...policy, ... }`). */
export type ExecuteToolCallsInput = ExecutionRequest & RuntimeInput;

const KNOWN = optionNameSet(CONTEXT_OPTIONS, RUNTIME_INPUT_OPTIONS, {
  messages: true,
  response: true,
  decisions: true,
} satisfies OptionNames<Omit<ExecutionRequest, keyof ExecutionContext>>);

/**
 * Executes the tool calls of one model response and appends one tool message per call, in the model's
 * order. Failures the model can act on become tool messages. A fatal failure throws `ToolExecutionError`,
 * a limit under the `throw` policy `ToolCallLimitExceededError`, a caller callback that fails
 * `CallbackError`: each carries the partial result. When the caller's signal aborts, the promise rejects
 * with the signal's reason. Calls that wait for a decision (`needsApproval`, a `beforeToolCall` hook that
 * interrupts) do not run: the result lists them as `interrupted`, and the other calls of the response run.
 * Handing back the returned `messages` with the same response and `decisions` runs the waiting ones.
 *
 * The one-off form (`tools` and a policy) builds a runtime, and a memory store, per call and keeps nothing
 * between calls: with a `sessionId` or a `turnId` it needs a `store` (else `InvalidOptionsError`). Build one
 * runtime with `createToolRuntime` to check the policy once and count a growing history in O(1). Options it
 * does not know, and policy options next to a `runtime`, are refused with `InvalidOptionsError`.
 */
export async function executeToolCalls(input: ExecuteToolCallsInput): Promise<ToolExecutionResult> {
  checkOptionNames(input, KNOWN, { of: 'executeToolCalls' });
  return runtimeOf(input, 'executeToolCalls', input).executeToolCalls(input);
}
