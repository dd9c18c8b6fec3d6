import type { Message } from '../core/message.js';

/**
 * Ways a history breaks the tool-call protocol. Empty when it is well-formed: every assistant tool call
 * has a non-empty id unique in its message, and exactly one tool response among the tool messages right
 * after it; no tool message answers anything else.
 */
export function historyProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index] as Message;
    index++;
    if (message.role === 'tool') {
      problems.push(`message ${index - 1}: tool response ${message.toolCallId} follows no tool call`);
      continue;
    }
    if (message.role !== 'assistant' || message.toolCalls === undefined || message.toolCalls.length === 0) {
      continue;
    }
    const at = index - 1;
    const ids = message.toolCalls.map((call) => call.id);
    if (ids.some((id) => typeof id !== 'string' || id === ''))
      problems.push(`message ${at}: a call has no id`);
    if (new Set(ids).size !== ids.length) problems.push(`message ${at}: call ids repeat`);
    const answers = new Map<string, number>();
    while (index < messages.length && messages[index]?.role === 'tool') {
      const id = (messages[index] as { toolCallId: string }).toolCallId;
      answers.set(id, (answers.get(id) ?? 0) + 1);
      index++;
    }
    for (const id of new Set(ids)) {
      const count = answers.get(id) ?? 0;
      if (count !== 1) problems.push(`message ${at}: call ${id} has ${count} tool responses`);
    }
    for (const id of answers.keys()) {
      if (!ids.includes(id)) problems.push(`message ${at}: tool response ${id} answers no call of it`);
    }
  }
  return problems;
}
