import { LIMIT_CODE, NOT_ADMITTED_CODES, NOT_EXECUTED_PATTERN } from './targets.js';

export interface TurnLimits {
  readonly perTool: number;
  readonly total: number;
  /** Names of the registered tools (a call to anything else never counts). */
  readonly tools: ReadonlySet<string>;
}

/**
 * The limit-exactness oracle, over a well-formed history. The turn starts after the last user message;
 * each tool message counts for the tool its call named (the assistant's call, not the tool message's own
 * `name`, which callers may leave out), unless its code or text says the call never reached its tool. From `from`
 * on: no admitted call takes a tool past `perTool` or the turn past `total`, and a call is refused by a
 * limit only when that limit was reached.
 */
export function limitProblem(
  messages: readonly unknown[],
  from: number,
  limits: TurnLimits,
): string | undefined {
  try {
    return walk(messages, from, limits);
  } catch {
    return undefined;
  }
}

function walk(messages: readonly unknown[], from: number, limits: TurnLimits): string | undefined {
  let start = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    if ((messages[index] as { role?: unknown }).role === 'user') {
      start = index + 1;
      break;
    }
  }
  const perTool = new Map<string, number>();
  let total = 0;
  let names = new Map<string, string>();
  for (let index = start; index < messages.length; index++) {
    const message = messages[index] as {
      role?: unknown;
      toolCalls?: readonly { id: string; name: string }[];
      toolCallId?: string;
      errorCode?: unknown;
      content?: unknown;
    };
    if (message.role === 'assistant') {
      names = new Map((message.toolCalls ?? []).map((call) => [call.id, call.name]));
      continue;
    }
    if (message.role !== 'tool') continue;
    const tool = names.get(message.toolCallId as string);
    if (tool === undefined || !limits.tools.has(tool)) continue;
    const code = typeof message.errorCode === 'string' ? message.errorCode : undefined;
    const checked = index >= from;
    if (code === LIMIT_CODE) {
      const reached = (perTool.get(tool) ?? 0) >= limits.perTool || total >= limits.total;
      if (checked && !reached) return 'a call was refused by a limit it had not reached';
      continue;
    }
    if (code !== undefined && NOT_ADMITTED_CODES.has(code)) continue;
    // A call the history says never ran (whether that is true is the malformed-history oracle's business).
    if (typeof message.content === 'string' && NOT_EXECUTED_PATTERN.test(message.content)) continue;
    const count = (perTool.get(tool) ?? 0) + 1;
    perTool.set(tool, count);
    total++;
    if (checked && count > limits.perTool) return 'a tool ran past its per-turn limit';
    if (checked && total > limits.total) return 'the turn ran past its total limit';
  }
  return undefined;
}
