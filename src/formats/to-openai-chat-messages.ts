import type { Message } from '../core/message.js';
import type { OpenAiChatMessage } from './openai-chat.js';

/**
 * toolwarden's history as chat completions `messages` (for `client.chat.completions.create`). A tool call's
 * `arguments` go as the model wrote them (raw text); a tool message's runtime note (the loop guard's)
 * follows the tool's own content as a second text part, so the content stays the tool's.
 */
export function toOpenAiChatMessages(messages: readonly Message[]): OpenAiChatMessage[] {
  return messages.map((message): OpenAiChatMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        return {
          role: 'assistant',
          // The API takes null, not '', for an assistant message that only calls tools.
          content: message.content === '' && calls.length > 0 ? null : message.content,
          ...(calls.length === 0
            ? {}
            : {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: call.arguments },
                })),
              }),
        };
      }
      case 'tool':
        return {
          role: 'tool',
          tool_call_id: message.toolCallId,
          content:
            message.note === undefined
              ? message.content
              : [
                  { type: 'text', text: message.content },
                  { type: 'text', text: message.note },
                ],
        };
      default: {
        const unreachable: never = message;
        throw new TypeError(`unknown message role ${String((unreachable as { role?: unknown }).role)}`);
      }
    }
  });
}
