import type { Message } from '../core/message.js';

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
 * Nothing is kept between executions, so one runtime can serve any number of turns at once.
 */
export interface TurnCounts {
  total: number;
  readonly perTool: Map<string, number>;
  readonly invalidPerTool: Map<string, number>;
}

export function emptyTurnCounts(): TurnCounts {
  return { total: 0, perTool: new Map(), invalidPerTool: new Map() };
}

/**
 * Counts the calls of the current turn from its tool messages. A tool message without a name takes the
 * name of the assistant message's call with its id (a history stored by other code may drop names).
 */
export function countTurnCalls(
  messages: readonly Message[],
  isExcluded: (toolName: string) => boolean,
): TurnCounts {
  const counts = emptyTurnCounts();
  // Tool messages without a name, by call id, until the assistant message that made the call is reached.
  let unnamed: Map<string, Array<string | undefined>> | undefined;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (typeof message !== 'object' || message === null) continue;
    if (message.role === 'user') break;
    if (message.role === 'assistant') {
      if (unnamed !== undefined && unnamed.size > 0)
        nameFromCalls(message.toolCalls, unnamed, (name, code) =>
          addCall(counts, { name, errorCode: code }, isExcluded),
        );
      continue;
    }
    if (message.role !== 'tool') continue;
    const code = message.errorCode;
    if (code !== undefined && NOT_ADMITTED.has(code)) continue;
    if (typeof message.name !== 'string' || message.name === '') {
      const id: unknown = message.toolCallId;
      if (typeof id !== 'string') {
        counts.total++;
        continue;
      }
      unnamed ??= new Map();
      const codes = unnamed.get(id);
      if (codes === undefined) unnamed.set(id, [code]);
      else codes.push(code);
      continue;
    }
    addCall(counts, { name: message.name, errorCode: code }, isExcluded);
  }
  // Names that no call gave: the calls still count toward the total.
  if (unnamed !== undefined) for (const codes of unnamed.values()) counts.total += codes.length;
  return counts;
}

/** Counts the unnamed tool messages answering these calls under the calls' names (`add`), and forgets them. */
function nameFromCalls(
  calls: unknown,
  unnamed: Map<string, Array<string | undefined>>,
  add: (name: string, code: string | undefined) => void,
): void {
  if (!Array.isArray(calls)) return;
  for (const call of calls as readonly unknown[]) {
    if (typeof call !== 'object' || call === null) continue;
    const { id, name } = call as { id?: unknown; name?: unknown };
    const codes = typeof id === 'string' ? unnamed.get(id) : undefined;
    if (codes === undefined || typeof name !== 'string') continue;
    for (const code of codes) add(name, code);
    unnamed.delete(id as string);
  }
}

/** Adds one tool message's call (see `countTurnCalls`). */
export function addCall(
  counts: TurnCounts,
  { name, errorCode: code }: { readonly name: string; readonly errorCode: string | undefined },
  isExcluded: (toolName: string) => boolean,
): void {
  if (code !== undefined && NOT_ADMITTED.has(code)) return;
  if (code !== undefined && INVALID_ARGUMENT_CODES.has(code)) increment(counts.invalidPerTool, name);
  if (isExcluded(name)) return;
  increment(counts.perTool, name);
  counts.total++;
}

export function copyTurnCounts(counts: TurnCounts): TurnCounts {
  return {
    total: counts.total,
    perTool: new Map(counts.perTool),
    invalidPerTool: new Map(counts.invalidPerTool),
  };
}

export function increment(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export function decrement(map: Map<string, number>, key: string): void {
  const value = (map.get(key) ?? 0) - 1;
  if (value > 0) map.set(key, value);
  else map.delete(key);
}
