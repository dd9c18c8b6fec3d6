import type { AssistantMessage, ToolCall } from '../core/message.js';

/** One tool call for `assistantWithCalls`: the tool's name, its arguments, its id. */
export interface CallSpec {
  /** The tool's name. */
  readonly name: string;
  /** Raw argument text, or a value to JSON-encode (default ''). */
  readonly arguments?: unknown;
  /** Default: `call_<n>` by position, starting at 1. */
  readonly id?: string;
}

/** Builds an assistant message that requests the given tool calls, as a model would. */
export function assistantWithCalls(calls: readonly CallSpec[], content = ''): AssistantMessage {
  const toolCalls: ToolCall[] = calls.map((call, index) => ({
    id: call.id ?? `call_${index + 1}`,
    name: call.name,
    arguments:
      call.arguments === undefined
        ? ''
        : typeof call.arguments === 'string'
          ? call.arguments
          : JSON.stringify(call.arguments),
  }));
  return { role: 'assistant', content, toolCalls };
}
