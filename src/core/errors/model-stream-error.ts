import type { ToolCall } from '../message.js';
import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ModelStreamError');

/**
 * Why a streamed answer is not an answer: the stream threw (`threw`), sent an `error` part (`error-part`),
 * ended without `finish` (`no-finish`), was not a stream (`not-a-stream`), or the run's signal aborted it
 * (`aborted`).
 */
export type StreamBreak = 'threw' | 'error-part' | 'no-finish' | 'not-a-stream' | 'aborted';

/** What had arrived when a stream broke off: the text and the calls as far as they got (arguments may be cut). */
export interface StreamPartial {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** Parts read before the break. */
  readonly parts: number;
}

/**
 * The model's stream broke off before its `finish`: the model call failed, as a `generate` that throws
 * does (the run stops as `MODEL_ERROR`, no half answer enters the history). What had arrived is kept in
 * `partial`, which holds the model's content: the message does not.
 */
export class ModelStreamError extends ToolwardenError<'MODEL_ERROR'> {
  override readonly name = 'ModelStreamError';
  readonly reason: StreamBreak;
  readonly partial: StreamPartial;
  readonly [MARKER] = true;

  constructor({
    reason,
    partial,
    cause,
  }: {
    reason: StreamBreak;
    partial: StreamPartial;
    /** What the stream threw, the `error` part's error, or the signal's reason. */
    cause?: unknown;
  }) {
    super({
      code: 'MODEL_ERROR',
      message: `The model's stream broke off (${reason}) after ${partial.parts} parts, ${partial.toolCalls.length} tool calls begun.`,
      cause,
    });
    this.reason = reason;
    this.partial = partial;
  }

  static override isInstance(value: unknown): value is ModelStreamError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
