import type { JsonSchema } from './json-schema.js';
import type { AssistantMessage, Message } from './message.js';

/** A tool as the model is told about it. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema | undefined;
}

/** What the loop sends a model: the history, the tool specs and a signal. */
export interface ModelRequest {
  readonly messages: readonly Message[];
  /** Empty when tools are disabled (the last answer after a stop). */
  readonly tools: readonly ToolSpec[];
  /** Aborted by the caller, the wall-clock budget, or a stop: pass it to the provider's client. */
  readonly signal: AbortSignal;
}

/** Tokens a model call used, input and output. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * Why the model stopped, as the AI SDK reports it: `unified` is one of a fixed set (`length` means the
 * output was cut at the token limit, so a tool call may be cut too), `raw` is the provider's own word.
 */
export interface ModelFinishReason {
  readonly unified: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';
  readonly raw: string | undefined;
}

/** A model's answer: the assistant message, why it finished, and the tokens it used. */
export interface ModelResponse {
  readonly message: AssistantMessage;
  readonly usage?: TokenUsage;
  /** Why the model stopped, when the adapter knows (the loop does not act on it; `wrapModelCall` sees it). */
  readonly finishReason?: ModelFinishReason;
  /** The provider's own metadata of the answer, passed through untouched (keyed by provider). */
  readonly providerMetadata?: Readonly<Record<string, unknown>>;
}

/**
 * The model port: one request, one assistant message. Provider adapters implement it, with `generate`
 * (the whole answer at once), `stream` (the answer as parts), or both; the loop checks that one is there.
 * The loop calls `stream` when the run asks for deltas (`streamDeltas: true`) or when there is no
 * `generate`; a streamed answer is collected into the same `ModelResponse` (`collectModelStream`), so
 * everything after the model call is the same either way.
 */
export interface Model {
  generate?(request: ModelRequest): Promise<ModelResponse>;
  /** The answer as parts, ended by `finish`. Stop producing when `request.signal` aborts or `return()` is called. */
  stream?(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}

/** A model that answers whole (what an adapter with `generate` returns, so callers need not check). */
export interface GeneratingModel extends Model {
  generate(request: ModelRequest): Promise<ModelResponse>;
}

/** A model that streams its answer. */
export interface StreamingModel extends Model {
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}

/**
 * One part of a streamed answer: the model port's streaming form (`Model.stream`). A closed union that
 * mirrors the AI SDK's `LanguageModelV3StreamPart` closely enough for an adapter to map part by part
 * (`text-delta`, `tool-input-start`, `tool-input-delta`, `tool-call`, `provider-tool-call`, `finish`,
 * `error`); V3 parts with no counterpart here (reasoning, sources, raw chunks, `*-end`) are left out by
 * the adapter. A part the loop does not know is ignored, so a newer model cannot break an older loop.
 */
export type ModelStreamPart =
  | { readonly type: 'text-delta'; readonly delta: string }
  /** A tool call begins: its input follows as `tool-input-delta` parts with the same `toolCallId`. */
  | { readonly type: 'tool-input-start'; readonly toolCallId: string; readonly toolName: string }
  | { readonly type: 'tool-input-delta'; readonly toolCallId: string; readonly delta: string }
  /**
   * A tool call is complete. `arguments` is the raw JSON text (untrusted, as in `ToolCall`); when given,
   * it wins over the deltas of the same call. A call may come whole, with no start and no deltas.
   */
  | {
      readonly type: 'tool-call';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly arguments?: string;
    }
  /**
   * The answer is complete; nothing after it is read. A stream without one broke off. `finishReason` is
   * `{ unified, raw }` or the unified word alone (`'stop'`); both become `ModelResponse.finishReason`.
   */
  | {
      readonly type: 'finish';
      readonly usage?: TokenUsage;
      readonly finishReason?: ModelFinishReason | string;
      /** The provider's metadata of the answer, passed through as `ModelResponse.providerMetadata`. */
      readonly providerMetadata?: Readonly<Record<string, unknown>>;
    }
  /**
   * The provider runs the call `toolCallId` itself (a web search, a code interpreter: the AI SDK's
   * `providerExecuted`, its `tool-result` and `tool-approval-request` parts). Not toolwarden's to run: every
   * part of that call, before this one or after, is left out of the answer.
   */
  | { readonly type: 'provider-tool-call'; readonly toolCallId: string }
  /** The provider reported a failure in the stream: the model call failed. */
  | { readonly type: 'error'; readonly error: unknown };
