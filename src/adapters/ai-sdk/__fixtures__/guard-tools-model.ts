// A scripted AI SDK model (the real MockLanguageModelV3 of `ai/test`) for the guardTools tests.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A response with tool calls; `input` is the JSON text the model sent (an object is encoded). */
export function callsOf(
  ...calls: readonly { readonly id: string; readonly name: string; readonly input: unknown }[]
): LanguageModelV3GenerateResult {
  return {
    content: calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

export function textOf(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

/** A model answering with `script(options, index)`: it sees what the AI SDK offered (tools, toolChoice). */
export function scriptedModel(
  script: (options: LanguageModelV3CallOptions, index: number) => LanguageModelV3GenerateResult,
): MockLanguageModelV3 {
  let index = 0;
  return new MockLanguageModelV3({ doGenerate: async (options) => script(options, index++) });
}

/** Whether the model was offered tools it may call on this request. */
export function toolsOffered(options: LanguageModelV3CallOptions): boolean {
  return (options.tools?.length ?? 0) > 0 && options.toolChoice?.type !== 'none';
}

/** The outputs of the tool results in a prompt, by tool call id, as the model reads them. */
export function toolOutputsIn(prompt: LanguageModelV3Prompt): Map<string, unknown> {
  const outputs = new Map<string, unknown>();
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result') outputs.set(part.toolCallId, part.output);
  }
  return outputs;
}

/** The same script as a streaming model: each result becomes the stream parts a provider sends. */
export function streamedModel(
  script: (options: LanguageModelV3CallOptions, index: number) => LanguageModelV3GenerateResult,
): MockLanguageModelV3 {
  let index = 0;
  return new MockLanguageModelV3({
    doStream: async (options) => {
      const result = script(options, index++);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of result.content) {
        if (part.type === 'tool-call') parts.push(part);
        if (part.type === 'text') {
          parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text });
          parts.push({ type: 'text-end', id: 't' });
        }
      }
      parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}
