import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../core/message.js';

/**
 * A round that waits for decisions, at the end of a history: the assistant message, then the tool
 * messages of the calls that ran (each answering a call of it, once), and not every call answered.
 */
export interface PausedRound {
  /** Where the assistant message stands in the history. */
  readonly at: number;
  readonly assistant: AssistantMessage;
  /** The tool messages of the calls that ran, by call id. */
  readonly settled: ReadonlyMap<string, ToolMessage>;
  /** The calls without an answer, in the model's order. */
  readonly waiting: readonly ToolCall[];
}

/** The paused round the history ends with, or undefined when it ends otherwise (or cannot be read). */
export function pausedRound(messages: readonly Message[]): PausedRound | undefined {
  try {
    return readPausedRound(messages);
  } catch {
    // A history of the caller's with a throwing getter or Proxy trap: no round of this runtime's.
    return undefined;
  }
}

function readPausedRound(messages: readonly Message[]): PausedRound | undefined {
  let at = messages.length - 1;
  while (at >= 0 && messages[at]?.role === 'tool') at--;
  const assistant = messages[at];
  if (assistant?.role !== 'assistant' || !Array.isArray(assistant.toolCalls)) return undefined;
  const ids = new Set(assistant.toolCalls.map((call) => call.id));
  const settled = new Map<string, ToolMessage>();
  for (let index = at + 1; index < messages.length; index++) {
    const message = messages[index] as ToolMessage;
    if (!ids.has(message.toolCallId) || settled.has(message.toolCallId)) return undefined;
    settled.set(message.toolCallId, message);
  }
  const waiting = assistant.toolCalls.filter((call) => !settled.has(call.id));
  return waiting.length === 0 ? undefined : { at, assistant, settled, waiting };
}

/** The round's tool messages in the model's order of its calls (providers need each call answered in turn). */
export function inCallOrder(
  calls: readonly ToolCall[],
  settled: ReadonlyMap<string, ToolMessage>,
  added: readonly ToolMessage[],
): ToolMessage[] {
  const byId = new Map(settled);
  for (const message of added) byId.set(message.toolCallId, message);
  const ordered: ToolMessage[] = [];
  for (const call of calls) {
    const message = byId.get(call.id);
    if (message !== undefined) ordered.push(message);
  }
  return ordered;
}

/** Whether a response asks for the same calls as a round (the same tools with the same argument text, in order). */
export function sameCalls(round: AssistantMessage, response: AssistantMessage): boolean {
  const a = round.toolCalls ?? [];
  const b = response.toolCalls ?? [];
  return (
    a.length === b.length &&
    a.every((call, index) => call.name === b[index]?.name && call.arguments === b[index]?.arguments)
  );
}
