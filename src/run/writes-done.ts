import { formatToolError } from '../chain/format-tool-error.js';
import type { Message } from '../messages/message.js';

/** A write tool that ran in the request, and how often. */
export interface WriteDone {
  readonly tool: string;
  readonly times: number;
}

/** What a call of a round the runtime could not finish says when the call never ran. */
export const NOT_EXECUTED_TEXT = formatToolError('INTERNAL_ERROR', ['The call was not executed.']);

/** Error codes of calls that never reached the tool's execute: such a write did not run. */
const NOT_RUN = new Set([
  'UNKNOWN_TOOL',
  'INVALID_ARGUMENTS',
  'INVALID_JSON',
  'ARGUMENTS_TOO_LARGE',
  'ARGUMENTS_TOO_DEEP',
  'FORBIDDEN_KEY',
  'TOO_MANY_INVALID_ATTEMPTS',
  'TOOL_CALL_LIMIT',
  'PERMISSION_DENIED',
]);

/**
 * The write tools that ran in the current request (the messages after the last user message, a paused
 * and resumed run's earlier part included), and how often, in the order they first ran: a success, or a
 * failure after the tool was started (its effect may have happened). What a stop must tell before anyone
 * asks again.
 */
export function writesDone(messages: readonly Message[], isWrite: (tool: string) => boolean): WriteDone[] {
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role !== 'user') start--;
  const times = new Map<string, number>();
  for (let index = start; index < messages.length; index++) {
    const message = messages[index];
    if (message?.role !== 'tool' || !isWrite(message.name)) continue;
    if (message.isError && message.errorCode !== undefined && NOT_RUN.has(message.errorCode)) continue;
    if (message.content === NOT_EXECUTED_TEXT) continue;
    times.set(message.name, (times.get(message.name) ?? 0) + 1);
  }
  return [...times].map(([tool, count]) => ({ tool, times: count }));
}
