import type { AssistantMessage, Message } from '../messages/message.js';
import type { JsonSchema } from '../schema/json-schema.js';

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

/** The model port: one request, one assistant message. Provider adapters implement it. */
export interface Model {
  generate(request: ModelRequest): Promise<ModelResponse>;
}
