import type { Message } from '../messages/message.js';

/** Error codes of calls that never reached their tool: they do not count toward the limits. */
const NOT_ADMITTED = new Set(['UNKNOWN_TOOL', 'TOOL_CALL_LIMIT', 'TOO_MANY_INVALID_ATTEMPTS']);
/** Error codes that mean the model sent arguments the tool could not take. */
export const INVALID_ARGUMENT_CODES: ReadonlySet<string> = new Set([
  'INVALID_ARGUMENTS',
  'INVALID_JSON',
  'ARGUMENTS_TOO_LARGE',
  'ARGUMENTS_TOO_DEEP',
  'FORBIDDEN_KEY',
]);

/**
 * Counts of the current turn, derived from the history alone (a turn starts at the last user message).
 * Nothing is kept between executions, so one manager can serve any number of turns at once.
 */
export interface TurnCounts {
  total: number;
  readonly perTool: Map<string, number>;
  readonly invalidPerTool: Map<string, number>;
}

export function countTurnCalls(
  messages: readonly Message[],
  isExcluded: (toolName: string) => boolean,
): TurnCounts {
  const counts: TurnCounts = { total: 0, perTool: new Map(), invalidPerTool: new Map() };
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message === undefined || message.role === 'user') break;
    if (message.role !== 'tool') continue;
    const code = message.errorCode;
    if (code !== undefined && NOT_ADMITTED.has(code)) continue;
    if (code !== undefined && INVALID_ARGUMENT_CODES.has(code))
      increment(counts.invalidPerTool, message.name);
    if (isExcluded(message.name)) continue;
    increment(counts.perTool, message.name);
    counts.total++;
  }
  return counts;
}

export function increment(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
