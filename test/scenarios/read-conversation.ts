import type { Message, ToolMessage } from '../../src/core/message.js';

/** What a scripted model reads off the conversation it is sent. */
export interface ConversationView {
  /** This model call's number in the current turn (1 for the first call after the user's message). */
  readonly round: number;
  /** The request of the conversation: 1 for the first user message, 2 for the next, ... */
  readonly request: number;
  /** The tool messages of the current turn, oldest first. */
  readonly toolMessages: readonly ToolMessage[];
  /** The newest tool message of the turn, if any. */
  readonly lastTool: ToolMessage | undefined;
}

/** Reads the current turn (everything after the last user message), as a model reacting to it would. */
export function readConversation(messages: readonly Message[]): ConversationView {
  let start = 0;
  let request = 0;
  for (let i = 0; i < messages.length; i++) {
    if (messages[i]?.role === 'user') {
      start = i + 1;
      request++;
    }
  }
  let assistants = 0;
  const toolMessages: ToolMessage[] = [];
  for (let i = start; i < messages.length; i++) {
    const message = messages[i];
    if (message?.role === 'assistant') assistants++;
    else if (message?.role === 'tool') toolMessages.push(message);
  }
  return { round: assistants + 1, request, toolMessages, lastTool: toolMessages.at(-1) };
}
