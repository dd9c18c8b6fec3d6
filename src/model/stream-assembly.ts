import type { StreamPartial } from '../core/errors/model-stream-error.js';
import type { ToolCall } from '../core/message.js';
import type { ModelFinishReason, ModelResponse, TokenUsage } from '../core/model.js';
import { finishReasonOf } from './finish-reason-of.js';

/** What one part meant: a delta to report, the end, a failure, or nothing (a part not known or not readable). */
export type AssembledPart =
  | { readonly type: 'text-delta'; readonly delta: string }
  | {
      readonly type: 'tool-input-delta';
      /** The call's position in the answer (its order of first appearance): stable when the loop renames an id. */
      readonly index: number;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly delta: string;
    }
  | { readonly type: 'finish' }
  | { readonly type: 'error'; readonly error: unknown }
  | { readonly type: 'ignored' };

/** A streamed answer being put together, one part at a time. */
export interface StreamAssembly {
  add(part: unknown): AssembledPart;
  /** The answer so far, in the form `generate` gives it. */
  response(): ModelResponse;
  /** The answer so far, for a stream that broke off. */
  partial(): StreamPartial;
}

interface CallDraft {
  readonly id: string;
  readonly index: number;
  name: string;
  readonly chunks: string[];
  /** The `tool-call` part's arguments: they win over the chunks. */
  final: string | undefined;
  /** Its `tool-call` part came: a later call with the same id is another call. */
  complete: boolean;
}

const IGNORED: AssembledPart = Object.freeze({ type: 'ignored' });
const FINISH: AssembledPart = Object.freeze({ type: 'finish' });

/**
 * Assembles stream parts into one answer, without trusting them: tool-input deltas are joined per call
 * id, the calls in order of first appearance; a `tool-call` part's name and arguments win over what
 * the deltas said, and complete the call (a later start or `tool-call` of the same id is another call,
 * as in a whole answer: the loop gives it an id of its own; a later delta is ignored); a delta for an id
 * never started opens the call (its name may come later, else it stays empty and the chain answers it as
 * an unknown tool); a part of unknown type, with fields of the wrong type, or whose fields cannot be
 * read, is ignored. An id that a `provider-tool-call` part names is the provider's for the whole answer:
 * no call of that id is in it, whichever part came first (deltas reported before the mark stay reported:
 * a part cannot be taken back). Deterministic; no I/O.
 */
export function createStreamAssembly(): StreamAssembly {
  const text: string[] = [];
  const calls: CallDraft[] = [];
  const byId = new Map<string, CallDraft>();
  /** Ids of calls the provider runs itself: never a call of the answer. */
  const providerIds = new Set<string>();
  let usage: TokenUsage | undefined;
  let finishReason: ModelFinishReason | undefined;
  let providerMetadata: Readonly<Record<string, unknown>> | undefined;
  let parts = 0;

  const draft = (id: string, name: string): CallDraft => {
    const call: CallDraft = { id, index: calls.length, name, chunks: [], final: undefined, complete: false };
    calls.push(call);
    return call;
  };

  const open = (id: string, name: string): CallDraft => {
    let call = byId.get(id);
    if (call === undefined || call.complete) {
      call = draft(id, name);
      byId.set(id, call);
    } else if (call.name === '') call.name = name;
    return call;
  };

  const read = (part: unknown): AssembledPart => {
    if (typeof part !== 'object' || part === null) return IGNORED;
    const p = part as Record<string, unknown>;
    switch (p.type) {
      case 'text-delta': {
        const { delta } = p;
        if (typeof delta !== 'string') return IGNORED;
        text.push(delta);
        return { type: 'text-delta', delta };
      }
      case 'tool-input-start': {
        const { toolCallId, toolName } = p;
        if (typeof toolCallId !== 'string' || providerIds.has(toolCallId)) return IGNORED;
        open(toolCallId, typeof toolName === 'string' ? toolName : '');
        return IGNORED;
      }
      case 'tool-input-delta': {
        const { toolCallId, delta } = p;
        if (typeof toolCallId !== 'string' || typeof delta !== 'string' || providerIds.has(toolCallId))
          return IGNORED;
        // A delta after its call's `tool-call` part changes nothing: the call is complete.
        if (byId.get(toolCallId)?.complete === true) return IGNORED;
        const call = open(toolCallId, '');
        call.chunks.push(delta);
        return { type: 'tool-input-delta', index: call.index, toolCallId, toolName: call.name, delta };
      }
      case 'tool-call':
        return completeCall(p);
      case 'provider-tool-call': {
        const { toolCallId } = p;
        // An id-less call is a call of its own: an empty id names none.
        if (typeof toolCallId === 'string' && toolCallId !== '') providerIds.add(toolCallId);
        return IGNORED;
      }
      case 'finish':
        if (typeof p.usage === 'object' && p.usage !== null) usage = p.usage as TokenUsage;
        if (p.finishReason !== undefined) finishReason = finishReasonOf(p.finishReason);
        if (typeof p.providerMetadata === 'object' && p.providerMetadata !== null)
          providerMetadata = p.providerMetadata as Readonly<Record<string, unknown>>;
        return FINISH;
      case 'error':
        return { type: 'error', error: p.error };
      default:
        return IGNORED;
    }
  };

  /** A whole call, or the end of a streamed one; a call that got no deltas reports its arguments as one delta. */
  const completeCall = (p: Record<string, unknown>): AssembledPart => {
    const { toolCallId, toolName, arguments: args } = p;
    if (typeof toolCallId === 'string' && providerIds.has(toolCallId)) return IGNORED;
    const name = typeof toolName === 'string' ? toolName : '';
    // A call without a usable id is a call of its own: the loop gives it an id.
    const call = typeof toolCallId === 'string' ? open(toolCallId, name) : draft('', name);
    call.complete = true;
    if (name !== '') call.name = name;
    if (typeof args === 'string') call.final = args;
    if (call.chunks.length > 0 || call.final === undefined || call.final === '') return IGNORED;
    return {
      type: 'tool-input-delta',
      index: call.index,
      toolCallId: call.id,
      toolName: call.name,
      delta: call.final,
    };
  };

  const toolCalls = (): ToolCall[] =>
    calls
      .filter((call) => !providerIds.has(call.id))
      .map((call) => ({ id: call.id, name: call.name, arguments: call.final ?? call.chunks.join('') }));

  return {
    add(part) {
      parts++;
      try {
        return read(part);
      } catch {
        // A Proxy or getter that throws: the part cannot be read.
        return IGNORED;
      }
    },
    response() {
      const content = text.join('');
      const assembled = toolCalls();
      const message =
        assembled.length === 0
          ? { role: 'assistant' as const, content }
          : { role: 'assistant' as const, content, toolCalls: assembled };
      return {
        message,
        ...(usage === undefined ? {} : { usage }),
        ...(finishReason === undefined ? {} : { finishReason }),
        ...(providerMetadata === undefined ? {} : { providerMetadata }),
      };
    },
    partial: () => ({ text: text.join(''), toolCalls: toolCalls(), parts }),
  };
}
