import type { ModelStreamPart } from '../../core/model.js';
import { fromFinishReason } from './from-finish-reason.js';
import { fromUsage } from './from-usage.js';

/**
 * One AI SDK stream part (`LanguageModelV3StreamPart`, and V2's, which share the fields read here) as
 * toolwarden's `ModelStreamPart`, or undefined for a part with no counterpart or one it cannot read:
 * `text-delta`, `tool-input-start` (`id` as `toolCallId`), `tool-input-delta`, `tool-call` (its `input`,
 * the raw JSON text, as `arguments`), `finish` (usage and finish reason as `generate` maps them, provider
 * metadata passed through) and `error`. A part of a call the provider runs itself (a start, a delta or a
 * call that says `providerExecuted: true`, a `tool-result`, which a model only sends for the provider's
 * calls, and a `tool-approval-request`, which is for one) becomes `provider-tool-call`, which keeps every
 * part of that call out of the answer, whatever part came first (see `createStreamAssembly`). Left out:
 * the parts with no counterpart (`stream-start`, `response-metadata`, `text-start`/`-end`, `reasoning-*`,
 * `tool-input-end`, `raw`, files, sources), parts of a type this version does not know, and parts whose
 * fields have the wrong type (a `tool-call` whose `input` is not text) or cannot be read. Stateless;
 * never throws.
 */
export function fromStreamPart(part: unknown): ModelStreamPart | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  try {
    return read(part as Record<string, unknown>);
  } catch {
    // A Proxy or getter that throws: the part cannot be read.
    return undefined;
  }
}

function read(p: Record<string, unknown>): ModelStreamPart | undefined {
  switch (p.type) {
    case 'text-delta':
      return typeof p.delta === 'string' ? { type: 'text-delta', delta: p.delta } : undefined;
    case 'tool-input-start': {
      const { id, toolName } = p;
      if (typeof id !== 'string') return undefined;
      if (p.providerExecuted === true) return providerCall(id);
      return {
        type: 'tool-input-start',
        toolCallId: id,
        toolName: typeof toolName === 'string' ? toolName : '',
      };
    }
    case 'tool-input-delta': {
      const { id, delta } = p;
      if (typeof id !== 'string') return undefined;
      if (p.providerExecuted === true) return providerCall(id);
      return typeof delta === 'string' ? { type: 'tool-input-delta', toolCallId: id, delta } : undefined;
    }
    case 'tool-call':
      return toolCallOf(p);
    case 'tool-result':
    case 'tool-approval-request':
      return providerCall(p.toolCallId);
    case 'finish':
      return finishOf(p);
    case 'error':
      return { type: 'error', error: p.error };
    default:
      return undefined;
  }
}

function toolCallOf(p: Record<string, unknown>): ModelStreamPart | undefined {
  const { toolCallId } = p;
  // The flag is read before the rest: a provider's call whose other fields are unusable is still the provider's.
  if (p.providerExecuted === true) return providerCall(toolCallId);
  const { toolName, input } = p;
  // The spec says text: a call whose input is anything else cannot be read (a `generate` answer skips it too).
  if (typeof input !== 'string') return undefined;
  // The id and name stay as they are when unusable: the loop names an id-less call and answers a
  // nameless one as an unknown tool.
  return {
    type: 'tool-call',
    toolCallId: toolCallId as string,
    toolName: typeof toolName === 'string' ? toolName : '',
    arguments: input,
  };
}

function providerCall(id: unknown): ModelStreamPart | undefined {
  return typeof id === 'string' ? { type: 'provider-tool-call', toolCallId: id } : undefined;
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
