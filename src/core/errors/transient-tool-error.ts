import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.TransientToolError');

/** Thrown by a tool to say the failure is temporary: the chain retries it with backoff (`TOOL_UNAVAILABLE`). */
export class TransientToolError extends ToolwardenError<'TOOL_UNAVAILABLE'> {
  override readonly name = 'TransientToolError';
  readonly retryAfterMs: number | undefined;
  readonly [MARKER] = true;

  constructor({
    message,
    retryAfterMs,
    cause,
  }: {
    message: string;
    /** A delay the service asked for (for example from `Retry-After`), in milliseconds. */
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    super({ code: 'TOOL_UNAVAILABLE', message, cause });
    this.retryAfterMs = retryAfterMs;
  }

  static override isInstance(value: unknown): value is TransientToolError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
