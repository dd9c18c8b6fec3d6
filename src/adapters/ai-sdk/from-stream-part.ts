import type { ModelStreamPart } from '../../model/model-stream-part.js';
import { fromFinishReason } from './from-finish-reason.js';
import { fromUsage } from './from-usage.js';

/** Maps one AI SDK stream part at a time; it remembers the calls the provider runs itself. */
export interface StreamPartMapper {
  /** The part as toolwarden's, or undefined for a part with no counterpart (or one it cannot read). */
  map(part: unknown): ModelStreamPart | undefined;
}

/**
 * Maps the parts of an AI SDK stream (`LanguageModelV3StreamPart`, and V2's, which share the fields read
 * here) to toolwarden's `ModelStreamPart`: `text-delta`, `tool-input-start` (`id` as `toolCallId`),
 * `tool-input-delta`, `tool-call` (its `input`, the raw JSON text, as `arguments`), `finish` (usage and
 * finish reason as `generate` maps them, provider metadata passed through) and `error`. Left out: the
 * parts with no counterpart (`stream-start`, `response-metadata`, `text-start`/`-end`, `reasoning-*`,
 * `tool-input-end`, `raw`, files, sources, tool results, approval requests), parts of a type this
 * version does not know, parts whose fields have the wrong type or cannot be read, and every part of a
 * call the provider runs itself (`providerExecuted`: web search and the like, not toolwarden's to run).
 * Deterministic; no I/O; never throws.
 */
export function createStreamPartMapper(): StreamPartMapper {
  /** Ids of calls the provider runs: their deltas and their call are skipped. */
  const providerCalls = new Set<string>();
  const read = (p: Record<string, unknown>): ModelStreamPart | undefined => {
    switch (p.type) {
      case 'text-delta':
        return typeof p.delta === 'string' ? { type: 'text-delta', delta: p.delta } : undefined;
      case 'tool-input-start': {
        const { id, toolName } = p;
        if (typeof id !== 'string') return undefined;
        if (p.providerExecuted === true) {
          providerCalls.add(id);
          return undefined;
        }
        return {
          type: 'tool-input-start',
          toolCallId: id,
          toolName: typeof toolName === 'string' ? toolName : '',
        };
      }
      case 'tool-input-delta': {
        const { id, delta } = p;
        if (typeof id !== 'string' || typeof delta !== 'string' || providerCalls.has(id)) return undefined;
        return { type: 'tool-input-delta', toolCallId: id, delta };
      }
      case 'tool-call':
        return toolCallOf(p);
      case 'finish':
        return finishOf(p);
      case 'error':
        return { type: 'error', error: p.error };
      default:
        return undefined;
    }
  };
  const toolCallOf = (p: Record<string, unknown>): ModelStreamPart | undefined => {
    const { toolCallId, toolName, input } = p;
    if (p.providerExecuted === true || (typeof toolCallId === 'string' && providerCalls.has(toolCallId)))
      return undefined;
    // The id and name stay as they are when unusable: the loop names an id-less call and answers a
    // nameless one as an unknown tool. The spec says `input` is text; anything else is left to the deltas.
    return {
      type: 'tool-call',
      toolCallId: toolCallId as string,
      toolName: typeof toolName === 'string' ? toolName : '',
      ...(typeof input === 'string' ? { arguments: input } : {}),
    };
  };
  return {
    map(part) {
      if (typeof part !== 'object' || part === null) return undefined;
      try {
        return read(part as Record<string, unknown>);
      } catch {
        // A Proxy or getter that throws: the part cannot be read.
        return undefined;
      }
    },
  };
}

function finishOf(p: Record<string, unknown>): ModelStreamPart {
  const metadata = p.providerMetadata;
  return {
    type: 'finish',
    usage: fromUsage(p.usage),
    finishReason: fromFinishReason(p.finishReason),
    ...(typeof metadata === 'object' && metadata !== null
      ? { providerMetadata: metadata as Readonly<Record<string, unknown>> }
      : {}),
  };
}
