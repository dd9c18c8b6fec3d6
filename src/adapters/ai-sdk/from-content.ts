import type { AssistantMessage } from '../../core/message.js';
import type { ModelStreamPart } from '../../core/model.js';
import { createStreamAssembly } from '../../model/stream-assembly.js';
import { fromStreamPart } from './from-stream-part.js';

/**
 * The content of an AI SDK result as an assistant message: the text parts joined, and the tool calls with
 * their `input` as the raw JSON text the provider produced (never parsed and written again: toolwarden's
 * parser judges it, and the history keeps it as the untrusted input it is). Each part is read as the same
 * part of a streamed answer would be (`fromStreamPart`), and the parts are put together as a stream's
 * (`createStreamAssembly`), so `generate` and `stream` make the same answer of the same parts. Skipped:
 * every call the provider runs itself (one that a part says `providerExecuted` of, or that has a
 * `tool-result` or an approval request: not toolwarden's to run, whichever part comes first), results,
 * approval requests, reasoning, files, sources, parts of a type this version does not know, and parts it
 * cannot read (wrong field types, such as an `input` that is not text; throwing getters), the rest of the
 * answer kept. Never throws; a content that is not an array reads as empty.
 */
export function fromContent(content: unknown): AssistantMessage {
  const assembly = createStreamAssembly();
  const length = lengthOf(content);
  for (let index = 0; index < length; index++) {
    const part = partOf(content as readonly unknown[], index);
    if (part !== undefined) assembly.add(part);
  }
  return assembly.response().message;
}

/** The content parts that are a stream's parts too. */
const TOOL_PARTS: ReadonlySet<unknown> = new Set(['tool-call', 'tool-result', 'tool-approval-request']);

/** One content part as a stream part: text as a delta, tool parts as the stream maps them, nothing else. */
function partOf(content: readonly unknown[], index: number): ModelStreamPart | undefined {
  try {
    const part = content[index];
    if (typeof part !== 'object' || part === null) return undefined;
    const { type } = part as { type?: unknown };
    if (type === 'text') {
      const { text } = part as { text?: unknown };
      return typeof text === 'string' ? { type: 'text-delta', delta: text } : undefined;
    }
    if (!TOOL_PARTS.has(type)) return undefined;
    const mapped = fromStreamPart(part);
    // Only what a content part can be: a getter may answer another type on the second read.
    return mapped?.type === 'tool-call' || mapped?.type === 'provider-tool-call' ? mapped : undefined;
  } catch {
    // A Proxy or getter that throws: the part cannot be read.
    return undefined;
  }
}

function lengthOf(content: unknown): number {
  try {
    return Array.isArray(content) ? content.length : 0;
  } catch {
    // A revoked Proxy, or one whose `length` throws.
    return 0;
  }
}
