import { DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND } from '../core/defaults.js';
import type { ToolCall } from '../core/message.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import type { GuardCall } from '../guard/guard-round.js';
import { originalContent } from './idempotency/idempotency-answers.js';

/**
 * A call and the chain's result as the loop guard reads them: the arguments as the model sent them, the
 * text it saw (a replayed write counts as the result it replays: the model repeated the call and saw
 * nothing new), and how it failed.
 */
export function guardCallOf(call: ToolCall, result: ToolCallResult): GuardCall {
  return {
    tool: result.toolName,
    arguments: call.arguments,
    content: originalContent(result),
    errorClass: result.type === 'error' ? result.errorClass : undefined,
  };
}

/** A round's calls and results (one per call, in the model's order), as many as the guard keeps. */
export function guardCallsOf(calls: readonly ToolCall[], results: readonly ToolCallResult[]): GuardCall[] {
  const count = Math.min(calls.length, results.length, DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND);
  const guarded: GuardCall[] = [];
  for (let index = 0; index < count; index++) {
    guarded.push(guardCallOf(calls[index] as ToolCall, results[index] as ToolCallResult));
  }
  return guarded;
}
