import { ToolwardenError } from './toolwarden-error.js';

export interface TransientToolErrorOptions {
  message: string;
  /** A delay the service asked for (for example from `Retry-After`), in milliseconds. */
  retryAfterMs?: number;
  cause?: unknown;
}

/** Thrown by a tool to say the failure is temporary: the chain retries it with backoff. */
export class TransientToolError extends ToolwardenError {
  readonly code = 'TOOL_TRANSIENT';
  override readonly name = 'TransientToolError';
  readonly retryAfterMs: number | undefined;

  constructor({ message, retryAfterMs, cause }: TransientToolErrorOptions) {
    super({ message, cause });
    this.retryAfterMs = retryAfterMs;
  }
}
