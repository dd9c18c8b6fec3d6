import { NOT_EXECUTED_PATTERN } from './targets.js';

/**
 * The malformed-history oracle. From `from` on, the history must be one a provider accepts: every
 * assistant tool call (an object with a non-empty string id unique in its message, a string name and
 * string arguments) is answered by exactly one tool message with its id, after it and before the next
 * assistant, user or system message; no tool message answers nothing. Returns the first problem, as a
 * short stable phrase (it names the failure kind in the report), or undefined.
 */
export function historyProblem(messages: readonly unknown[], from: number): string | undefined {
  try {
    return walk(messages, from);
  } catch {
    return 'history unreadable (a getter or trap threw)';
  }
}

function walk(messages: readonly unknown[], from: number): string | undefined {
  if (!Array.isArray(messages)) return 'messages is not an array';
  // Ids of the open assistant message's calls: false until answered.
  let open: Map<string, boolean> | undefined;
  const close = (): string | undefined => {
    if (open !== undefined)
      for (const answered of open.values()) if (!answered) return 'a tool call has no tool message';
    open = undefined;
    return undefined;
  };
  for (let index = from; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (typeof message !== 'object' || message === null) return 'a message is not an object';
    const { role } = message as { role?: unknown };
    switch (role) {
      case 'assistant': {
        const closing = close();
        if (closing !== undefined) return closing;
        const assistant = message as { content?: unknown; toolCalls?: unknown };
        if (typeof assistant.content !== 'string') return 'assistant content is not a string';
        if (assistant.toolCalls === undefined) break;
        if (!Array.isArray(assistant.toolCalls)) return 'toolCalls is not an array';
        const calls = new Map<string, boolean>();
        for (const call of assistant.toolCalls as unknown[]) {
          const problem = callProblem(call);
          if (problem !== undefined) return problem;
          const id = (call as { id: string }).id;
          if (calls.has(id)) return 'duplicate tool call id in one assistant message';
          calls.set(id, false);
        }
        open = calls;
        break;
      }
      case 'tool': {
        const tool = message as {
          toolCallId?: unknown;
          name?: unknown;
          content?: unknown;
          isError?: unknown;
        };
        if (typeof tool.toolCallId !== 'string') return 'tool message id is not a string';
        if (typeof tool.content !== 'string') return 'tool message content is not a string';
        if (typeof tool.name !== 'string') return 'tool message name is not a string';
        if (typeof tool.isError !== 'boolean') return 'tool message isError is not a boolean';
        const answered = open?.get(tool.toolCallId);
        if (answered === undefined) return 'a tool message answers no call of the assistant before it';
        if (answered) return 'a tool call is answered twice';
        open?.set(tool.toolCallId, true);
        break;
      }
      case 'user':
      case 'system': {
        const closing = close();
        if (closing !== undefined) return closing;
        if (typeof (message as { content?: unknown }).content !== 'string')
          return `${role} content is not a string`;
        break;
      }
      default:
        return 'a message has an unknown role';
    }
  }
  return close();
}

function callProblem(call: unknown): string | undefined {
  if (typeof call !== 'object' || call === null) return 'a tool call is not an object';
  const { id, name, arguments: args } = call as { id?: unknown; name?: unknown; arguments?: unknown };
  if (typeof id !== 'string' || id === '') return 'a tool call id is not a non-empty string';
  if (typeof name !== 'string') return 'a tool call name is not a string';
  if (typeof args !== 'string') return 'tool call arguments are not a string';
  return undefined;
}

/**
 * A history that lies about what ran: a tool message saying its call was not executed, for a call whose
 * tool did start (the tools record every call id they see).
 */
export function executionLie(
  messages: readonly unknown[],
  from: number,
  executed: ReadonlySet<string>,
): string | undefined {
  try {
    for (let index = from; index < messages.length; index++) {
      const message = messages[index] as { role?: unknown; toolCallId?: unknown; content?: unknown };
      if (message?.role !== 'tool' || typeof message.content !== 'string') continue;
      if (NOT_EXECUTED_PATTERN.test(message.content) && executed.has(String(message.toolCallId))) {
        return 'a call that ran is recorded as not executed';
      }
    }
    return undefined;
  } catch {
    return undefined;
  }
}
