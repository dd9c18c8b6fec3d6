import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ModelTimeoutError');

/**
 * One attempt at a model call did not settle within the loop's `modelTimeoutMs`: its request was aborted
 * through its signal. A transient failure: the loop tries the call again while it has retries; the last
 * one's timeout is the `MODEL_ERROR` stop's evidence.
 */
export class ModelTimeoutError extends ToolwardenError<'MODEL_ERROR'> {
  override readonly name = 'ModelTimeoutError';
  readonly timeoutMs: number;
  readonly [MARKER] = true;

  constructor({ timeoutMs }: { timeoutMs: number }) {
    super({
      code: 'MODEL_ERROR',
      message: `The model did not answer within ${timeoutMs} ms (modelTimeoutMs).`,
    });
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(value: unknown): value is ModelTimeoutError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
