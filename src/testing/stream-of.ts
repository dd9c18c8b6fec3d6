import type { AssistantMessage } from '../core/message.js';
import type { ModelResponse, ModelStreamPart, TokenUsage } from '../core/model.js';

/** How `streamOf` cuts an answer into stream parts. */
export interface StreamOfOptions {
  /** Characters per text and argument fragment (default: each in one piece). */
  readonly chunkSize?: number;
  /** The usage of the `finish` part (else the response's own, if any). */
  readonly usage?: TokenUsage;
  /** The `finish` part's reason (default `stop`, or `tool-calls` with tool calls). */
  readonly finishReason?: string;
}

/**
 * The parts that stream an answer, as a provider sends them: the text in fragments, then each call as a
 * start, its arguments in fragments and the complete call, then `finish`. Slice the list to make a stream
 * that breaks off.
 */
export function streamOf(
  answer: AssistantMessage | ModelResponse,
  options: StreamOfOptions = {},
): ModelStreamPart[] {
  const response: ModelResponse = 'role' in answer ? { message: answer } : answer;
  const { message } = response;
  const size = options.chunkSize ?? Number.POSITIVE_INFINITY;
  if (!(size >= 1)) throw new RangeError('chunkSize must be at least 1');
  const parts: ModelStreamPart[] = [];
  for (const delta of fragments(message.content, size)) parts.push({ type: 'text-delta', delta });
  for (const call of message.toolCalls ?? []) {
    const { id: toolCallId, name: toolName } = call;
    parts.push({ type: 'tool-input-start', toolCallId, toolName });
    for (const delta of fragments(call.arguments, size))
      parts.push({ type: 'tool-input-delta', toolCallId, delta });
    parts.push({ type: 'tool-call', toolCallId, toolName, arguments: call.arguments });
  }
  const usage = options.usage ?? response.usage;
  parts.push({
    type: 'finish',
    ...(usage === undefined ? {} : { usage }),
    finishReason: options.finishReason ?? ((message.toolCalls?.length ?? 0) > 0 ? 'tool-calls' : 'stop'),
  });
  return parts;
}

function fragments(text: string, size: number): string[] {
  if (size >= text.length) return text === '' ? [] : [text];
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}
