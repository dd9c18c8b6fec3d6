import type { ToolMessage } from '../core/message.js';
import type { ToolCallFailure, ToolCallResult } from '../core/tool-execution-result.js';
import type { PreparedCall, RejectedCall } from './prepare.js';
import type { CallsOutcome } from './calls.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The outcome of calls that ran: their results and tool messages in order, and what stands out. */
export function summarizeCalls(
  results: ToolCallResult[],
  prepared: readonly PreparedCall[],
  signal: AbortSignal | undefined,
): CallsOutcome {
  let fatal: ToolCallFailure | undefined;
  for (const result of results) {
    if (result.type === 'error' && result.errorClass === 'fatal') {
      fatal = result;
      break;
    }
  }
  let executed = 0;
  let direct = 0;
  let limited: RejectedCall | undefined;
  let storeFailed: RejectedCall | undefined;
  for (let i = 0; i < prepared.length; i++) {
    const entry = prepared[i] as PreparedCall;
    if (entry.type === 'rejected') {
      if (limited === undefined && entry.limit !== undefined) limited = entry;
      if (storeFailed === undefined && entry.storeFailed === true) storeFailed = entry;
      continue;
    }
    executed++;
    if (entry.tool.returnDirect) direct++;
  }
  const outcome: Mutable<CallsOutcome> = {
    results,
    toolMessages: results.map(toToolMessage),
    returnDirect: executed > 0 && direct === executed,
  };
  if (fatal !== undefined) outcome.fatal = fatal;
  if (limited?.limit !== undefined) outcome.limited = { toolName: limited.toolName, limit: limited.limit };
  if (storeFailed !== undefined)
    outcome.storeFailure = { toolName: storeFailed.toolName, error: storeFailed.error };
  if (signal?.aborted === true) outcome.aborted = true;
  return outcome;
}

function toToolMessage(result: ToolCallResult): ToolMessage {
  return result.type === 'success'
    ? {
        role: 'tool',
        toolCallId: result.toolCallId,
        name: result.toolName,
        content: result.content,
        isError: false,
      }
    : {
        role: 'tool',
        toolCallId: result.toolCallId,
        name: result.toolName,
        content: result.content,
        isError: true,
        errorCode: result.code,
      };
}
