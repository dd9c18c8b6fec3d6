import { REPLAYED_FAILURE_TEXT, REPLAYED_SUCCESS_TEXT } from '../chain/idempotency/idempotency-answers.js';
import type { Message, ToolMessage } from '../core/message.js';
import type { ToolCallResult, ToolErrorCode } from '../core/tool-execution-result.js';
import { formatToolError } from '../gate/format-tool-error.js';
import { canonicalArguments } from '../serialize/canonical-json.js';
import type { ToolEffect } from '../tools/tool-effect.js';
import type { StopInfo } from './stop-info.js';

/** A tool that may change the world and took effect in the request, and how often. */
export type WriteDone = StopInfo['writes'][number];

/** What the request did before it stopped, as a stop tells it. */
export interface WritesOfRequest {
  readonly writes: readonly WriteDone[];
  /**
   * The tools (each named once) with a call that may or may not have taken effect: it was cut off, timed
   * out or failed after it started, or its record says an identical call's outcome is unknown.
   */
  readonly outcomeUnknown: readonly string[];
}

/** What a call of a round the runtime could not finish says when the call never ran. */
export const NOT_EXECUTED_TEXT = formatToolError('INTERNAL_ERROR', ['The call was not executed.']);

/**
 * What a failure with this code says of a call that failed on its own (not a replay): it did not act
 * (refused before running, or the tool reported a failure the model can fix, a denial), its outcome is
 * unknown whatever happened, or it is unknown once the tool had started (a timeout, a transient or fatal
 * failure, an abort, a result withheld).
 */
const FAILED: Readonly<Record<ToolErrorCode, 'none' | 'unknown' | 'unknown-if-started'>> = {
  UNKNOWN_TOOL: 'none',
  INVALID_ARGUMENTS: 'none',
  INVALID_JSON: 'none',
  ARGUMENTS_TOO_LARGE: 'none',
  ARGUMENTS_TOO_DEEP: 'none',
  FORBIDDEN_KEY: 'none',
  TOO_MANY_INVALID_ATTEMPTS: 'none',
  TOOL_CALL_LIMIT: 'none',
  PERMISSION_DENIED: 'none',
  IDEMPOTENCY_CONFLICT: 'none',
  ALREADY_IN_PROGRESS: 'none',
  TOOL_ERROR: 'none',
  OUTCOME_UNKNOWN: 'unknown',
  TOOL_UNAVAILABLE: 'unknown-if-started',
  INTERNAL_ERROR: 'unknown-if-started',
  ABORTED: 'unknown-if-started',
  CONTRACT_VIOLATION: 'unknown-if-started',
  RESULT_NOT_SERIALIZABLE: 'unknown-if-started',
};

type Fate = 'took-effect' | 'unknown' | 'none';

/**
 * What the tools that may change the world did in the current request (the messages after the last user
 * message, a paused and resumed run's earlier part included), in the order they first did it: what a stop
 * must tell before anyone asks again. A call is read from its result when this process has it (`results`),
 * else from its tool message; what neither tells is taken as unknown, never as nothing done.
 */
export function writesDone(
  messages: readonly Message[],
  effectOf: (tool: string) => ToolEffect | undefined,
  results: readonly ToolCallResult[] = [],
): WritesOfRequest {
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role !== 'user') start--;
  const resultOf = new Map(results.map((result) => [result.toolCallId, result]));
  const argumentsOf = new Map<string, string>();
  const times = new Map<string, { times: number; effect: Exclude<ToolEffect, 'read'>; last?: string }>();
  const unknown = new Set<string>();
  for (let index = start; index < messages.length; index++) {
    const message = messages[index];
    if (message?.role === 'assistant')
      for (const call of message.toolCalls ?? []) argumentsOf.set(call.id, call.arguments);
    if (message?.role !== 'tool') continue;
    const effect = effectOf(message.name);
    if (effect === undefined || effect === 'read') continue;
    const fate = fateOf(message, resultOf.get(message.toolCallId));
    if (fate === 'unknown') unknown.add(message.name);
    if (fate !== 'took-effect') continue;
    const entry = times.get(message.name) ?? { times: 0, effect };
    // An idempotent write run again as it last ran changed nothing more.
    const args = canonicalArguments(argumentsOf.get(message.toolCallId) ?? '');
    if (!(effect === 'idempotent-write' && entry.last === args)) entry.times++;
    entry.last = args;
    times.set(message.name, entry);
  }
  return {
    writes: [...times].map(([tool, entry]) => ({ tool, times: entry.times, effect: entry.effect })),
    outcomeUnknown: [...unknown],
  };
}

function fateOf(message: ToolMessage, result: ToolCallResult | undefined): Fate {
  // A replay did nothing new: the call it replays is counted where it ran. This process's result says so
  // itself; an earlier process's call only by its text (which a tool's own success text could imitate).
  if (result?.replayOf !== undefined) return 'none';
  if (!message.isError) {
    return result === undefined && message.content.startsWith(REPLAYED_SUCCESS_TEXT) ? 'none' : 'took-effect';
  }
  if (message.content === NOT_EXECUTED_TEXT) return 'none';
  const code = message.errorCode;
  if (code === undefined || !Object.hasOwn(FAILED, code)) return 'unknown';
  if (message.content.startsWith(`${code}: ${REPLAYED_FAILURE_TEXT}`)) return 'none';
  const failed = FAILED[code as ToolErrorCode];
  switch (failed) {
    case 'none':
      return 'none';
    case 'unknown':
      return 'unknown';
    case 'unknown-if-started':
      return result !== undefined && result.attempts === 0 ? 'none' : 'unknown';
    default: {
      const unreachable: never = failed;
      throw new TypeError(`unknown failure ${String(unreachable)}`);
    }
  }
}
