import type { AssistantMessage, ToolCall } from '../messages/message.js';
import type { ModelResponse, TokenUsage } from '../model/model.js';

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

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
  const rawCalls: unknown[] = Array.isArray(message.toolCalls) ? message.toolCalls : [];
  const toolCalls = copyWellFormed(rawCalls) ?? repairCalls(rawCalls, newId);
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

/** Most ids are unique in a handful of calls: below this many, a scan checks that without a Set. */
const SCAN_IDS_BELOW = 16;

/**
 * The common case, checked first: every call is an object with a non-empty, unique string id, a string
 * name and string arguments. Copied as they are (each field read once); undefined when any of them needs
 * repair.
 */
function copyWellFormed(rawCalls: readonly unknown[]): ToolCall[] | undefined {
  if (rawCalls.length >= SCAN_IDS_BELOW) return undefined;
  // Of its final size: it stays in the history, and a pushed-to array reserves room for 16.
  const toolCalls = new Array<ToolCall>(rawCalls.length);
  for (let i = 0; i < rawCalls.length; i++) {
    const raw = rawCalls[i];
    if (typeof raw !== 'object' || raw === null) return undefined;
    const { id, name, arguments: args } = raw as Partial<ToolCall>;
    if (typeof id !== 'string' || id === '' || typeof name !== 'string' || typeof args !== 'string')
      return undefined;
    for (let j = 0; j < i; j++) if ((toolCalls[j] as ToolCall).id === id) return undefined;
    toolCalls[i] = { id, name, arguments: args };
  }
  return toolCalls;
}

/** Missing or duplicate ids replaced, names and arguments coerced to strings. */
function repairCalls(rawCalls: readonly unknown[], newId: () => string): ToolCall[] {
  const seen = new Set<string>();
  // Every id the model sent, so a replacement never takes one that comes later in the list.
  const ids = new Set(
    rawCalls.map((raw) =>
      typeof raw === 'object' && raw !== null ? (raw as Partial<ToolCall>).id : undefined,
    ),
  );
  return rawCalls.map((raw) => {
    const call = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<ToolCall>;
    let id = typeof call.id === 'string' ? call.id : '';
    if (id === '' || seen.has(id)) {
      do id = newId();
      while (seen.has(id) || ids.has(id));
    }
    seen.add(id);
    return {
      id,
      name: typeof call.name === 'string' ? call.name : String(call.name ?? ''),
      arguments:
        typeof call.arguments === 'string' ? call.arguments : (JSON.stringify(call.arguments ?? {}) ?? ''),
    };
  });
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
