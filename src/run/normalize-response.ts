import { normalizeToolCalls } from '../chain/normalize-tool-calls.js';
import type { AssistantMessage } from '../core/message.js';
import type { ModelResponse, TokenUsage } from '../core/model.js';

/** The usage of an answer that reports none. */
export const NO_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

export type NormalizedResponse =
  | { readonly ok: true; readonly message: AssistantMessage; readonly usage: TokenUsage }
  | { readonly ok: false; readonly problem: string; readonly usage: TokenUsage };

/**
 * Makes a model's answer safe to build on: text is a string, every tool call has a non-empty id unique in
 * the response (missing or duplicate ids are replaced, so each call gets exactly one tool response), and
 * an answer with neither text nor calls is reported, not guessed at. Pure.
 */
export function normalizeResponse(response: unknown, newId: () => string): NormalizedResponse {
  try {
    return normalize(response, newId);
  } catch {
    // A Proxy or getter that throws: the answer cannot be read, which is the model's failure, not ours.
    return { ok: false, problem: 'the model returned a response that cannot be read', usage: NO_USAGE };
  }
}

function normalize(response: unknown, newId: () => string): NormalizedResponse {
  const candidate = (
    typeof response === 'object' && response !== null ? response : {}
  ) as Partial<ModelResponse>;
  const usage = readUsage(candidate.usage);
  const message = candidate.message as Partial<AssistantMessage> | undefined;
  if (typeof message !== 'object' || message === null) {
    return { ok: false, problem: 'the model returned no message', usage };
  }
  const content = typeof message.content === 'string' ? message.content : '';
  const toolCalls = Array.isArray(message.toolCalls) ? normalizeToolCalls(message.toolCalls, newId) : [];
  if (toolCalls.length === 0 && content.trim() === '') {
    return { ok: false, problem: 'the model answered with neither text nor tool calls', usage };
  }
  return {
    ok: true,
    message:
      toolCalls.length === 0 ? { role: 'assistant', content } : { role: 'assistant', content, toolCalls },
    usage,
  };
}

function readUsage(value: unknown): TokenUsage {
  if (typeof value !== 'object' || value === null) return NO_USAGE;
  const { inputTokens, outputTokens } = value as Partial<TokenUsage>;
  return {
    inputTokens: Number.isFinite(inputTokens) && (inputTokens as number) > 0 ? (inputTokens as number) : 0,
    outputTokens:
      Number.isFinite(outputTokens) && (outputTokens as number) > 0 ? (outputTokens as number) : 0,
  };
}
