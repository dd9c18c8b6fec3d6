import type { AssistantMessage, ToolCall } from '../../messages/message.js';

/**
 * The content of an AI SDK result as an assistant message: the text parts joined, and the tool calls with
 * their `input` as the raw JSON text the provider produced (never parsed and written again: toolwarden's
 * parser judges it, and the history keeps it as the untrusted input it is). Skipped: calls the provider
 * ran itself (`providerExecuted`: web search and the like, not toolwarden's to run), their results and
 * approval requests, reasoning, files, sources, and any part type this version does not know. Never throws
 * on a part it cannot read; a content that is not an array reads as empty.
 */
export function fromContent(content: unknown): AssistantMessage {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of Array.isArray(content) ? (content as unknown[]) : []) {
    if (typeof part !== 'object' || part === null) continue;
    const fields = part as Record<string, unknown>;
    if (fields.type === 'text' && typeof fields.text === 'string') text += fields.text;
    else if (fields.type === 'tool-call' && fields.providerExecuted !== true) {
      toolCalls.push({
        id: typeof fields.toolCallId === 'string' ? fields.toolCallId : '',
        name: typeof fields.toolName === 'string' ? fields.toolName : '',
        // The spec says text; anything else is left to the loop's normalization, which encodes it.
        arguments: fields.input as string,
      });
    }
  }
  return toolCalls.length === 0
    ? { role: 'assistant', content: text }
    : { role: 'assistant', content: text, toolCalls };
}
