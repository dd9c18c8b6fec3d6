import type { AssistantMessage, Message } from '../messages/message.js';
import type { JsonSchema } from '../schema/json-schema.js';
import type { ModelStreamPart } from './model-stream-part.js';

/** A tool as the model is told about it. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema | undefined;
}

export interface ModelRequest {
  readonly messages: readonly Message[];
  /** Empty when tools are disabled (the last answer after a stop). */
  readonly tools: readonly ToolSpec[];
  /** Aborted by the caller, the wall-clock budget, or a stop: pass it to the provider's client. */
  readonly signal: AbortSignal;
}

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
