import { ToolwardenError } from './toolwarden-error.js';

export interface ToolTimeoutErrorOptions {
  toolName: string;
  timeoutMs: number;
}

/** A tool did not settle within its timeout. Classified as transient. */
export class ToolTimeoutError extends ToolwardenError {
  readonly code = 'TOOL_TIMEOUT';
  override readonly name = 'ToolTimeoutError';
  readonly toolName: string;
  readonly timeoutMs: number;

  constructor({ toolName, timeoutMs }: ToolTimeoutErrorOptions) {
    super({ message: `Tool "${toolName}" did not finish within ${timeoutMs} ms` });
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }
}
