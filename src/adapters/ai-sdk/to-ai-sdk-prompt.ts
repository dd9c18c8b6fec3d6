import type {
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import type { ParseArgumentsLimits } from '../../chain/parse-arguments.js';
import type { AssistantMessage, Message, ToolMessage } from '../../core/message.js';
import { toToolCallInput } from './to-tool-call-input.js';

/**
 * toolwarden's history as a `LanguageModelV3Prompt`. Only the parts V2 shares with V3 are made (text,
 * tool-call, tool results as `text` or `error-text`), so the same prompt serves a V2 model. Consecutive
 * tool messages become one `tool` message, as the AI SDK builds them. Pure.
 */
export function toAiSdkPrompt(
  messages: readonly Message[],
  limits: ParseArgumentsLimits,
): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Message[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        break;
      case 'assistant':
        prompt.push(assistantMessage(message, limits));
        break;
      case 'tool': {
        const last = prompt.at(-1);
        const part = toolResultPart(message);
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
      default: {
        const unreachable: never = message;
        throw new TypeError(`unknown message role ${String((unreachable as Message).role)}`);
      }
    }
  }
  return prompt;
}

function assistantMessage(message: AssistantMessage, limits: ParseArgumentsLimits): LanguageModelV3Message {
  const content: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] = [];
  // An empty text part is refused by some providers (Anthropic: "text content blocks must be non-empty").
  if (message.content !== '') content.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) {
    content.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: toToolCallInput(call.arguments, limits),
    });
  }
  return { role: 'assistant', content };
}

/**
 * A tool message as a tool-result part: an error as `error-text` (the provider marks it, e.g. Anthropic's
 * `is_error`). The loop guard's note follows the content in the same text, after a blank line: the
 * `content` output type, which has separate parts, is sent as JSON text by the OpenAI-compatible provider.
 */
function toolResultPart(message: ToolMessage): LanguageModelV3ToolResultPart {
  const value = message.note === undefined ? message.content : `${message.content}\n\n${message.note}`;
  return {
    type: 'tool-result',
    toolCallId: message.toolCallId,
    toolName: message.name,
    output: message.isError ? { type: 'error-text', value } : { type: 'text', value },
  };
}
