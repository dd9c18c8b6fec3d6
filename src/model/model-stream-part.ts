import type { ModelFinishReason, TokenUsage } from './model.js';

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
