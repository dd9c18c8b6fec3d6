import type { ToolCall } from '../core/message.js';
import type { ModelResponse } from '../core/model.js';
import type { OpenAiChatCompletion } from './openai-chat.js';
import { describeType } from './read-tool-fields.js';
import { ToolFormatError } from './tool-format-error.js';

/**
 * A chat completion as toolwarden's model response: the first choice's text (its refusal when it refused)
 * and its function calls, their `arguments` kept as the raw text the model wrote (toolwarden's parser
 * judges them), and the usage. A completion without a choice is a `ToolFormatError`: the provider answered
 * something that is not a completion.
 */
export function fromOpenAiChatCompletion(completion: OpenAiChatCompletion): ModelResponse {
  const choice = (completion as { choices?: unknown } | null | undefined)?.choices;
  const first = Array.isArray(choice)
    ? (choice[0] as OpenAiChatCompletion['choices'][number] | undefined)
    : undefined;
  if (first === undefined || typeof first.message !== 'object' || first.message === null) {
    throw new ToolFormatError({
      format: 'openai',
      path: 'choices[0].message',
      problem: `a chat completion has a first choice with a message, got ${describeType(choice)}.`,
    });
  }
  const { message } = first;
  const toolCalls: ToolCall[] = [];
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    // Only function calls are toolwarden's to run (custom tools are another format).
    if (call?.type !== undefined && call.type !== 'function') continue;
    toolCalls.push({
      id: typeof call?.id === 'string' ? call.id : '',
      name: typeof call?.function?.name === 'string' ? call.function.name : '',
      arguments: typeof call?.function?.arguments === 'string' ? call.function.arguments : '',
    });
  }
  const text = typeof message.content === 'string' ? message.content : (message.refusal ?? '');
  const { usage } = completion;
  return {
    message: { role: 'assistant', content: text, ...(toolCalls.length === 0 ? {} : { toolCalls }) },
    ...(usage === undefined || usage === null
      ? {}
      : { usage: { inputTokens: count(usage.prompt_tokens), outputTokens: count(usage.completion_tokens) } }),
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
