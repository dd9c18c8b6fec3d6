import { checkOptionNames, type OptionNames, optionNameSet } from '../options/check-option-names.js';
import type { SingleCallOptions, ToolCallInput, ToolCallOutcome } from './execute-single-call.js';
import { CONTEXT_OPTIONS, type ExecutionContext } from './execute-with-runtime.js';
import { RUNTIME_INPUT_OPTIONS, type RuntimeInput, runtimeOf } from './runtime-input.js';

/** The call, its options, and a runtime or tools and a policy (the one-off form). */
export type ExecuteToolCallInput = SingleCallOptions & RuntimeInput & { readonly call: ToolCallInput };

const KNOWN = optionNameSet(CONTEXT_OPTIONS, RUNTIME_INPUT_OPTIONS, {
  call: true,
  decision: true,
  counts: true,
  idempotencyScope: true,
} satisfies OptionNames<Omit<SingleCallOptions, keyof ExecutionContext> & { readonly call: unknown }>);

/**
 * Runs one call through the whole chain with no history: the structured answer (`content`, `isError`,
 * `value`, `code`, `errorClass`, the full `result`) an MCP proxy needs, or the interruption of a call that
 * waits for a decision (`needsApproval`, or a `beforeToolCall` hook that interrupted). Without `counts`, no
 * turn limits apply. The one-off form keeps nothing between calls, as for `executeToolCalls`.
 */
export async function executeToolCall(input: ExecuteToolCallInput): Promise<ToolCallOutcome> {
  checkOptionNames(input, KNOWN, { of: 'executeToolCall' });
  return runtimeOf(input, 'executeToolCall', input).executeToolCall(input.call, input);
}
