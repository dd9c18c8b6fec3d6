import { ToolwardenError } from './toolwarden-error.js';

export interface ToolInputErrorOptions {
  /** Shown to the model after redaction: say what to change. */
  message: string;
  cause?: unknown;
}

/** Thrown by a tool to say the model can fix the call (bad arguments, a business rule). */
export class ToolInputError extends ToolwardenError {
  readonly code = 'TOOL_INPUT_INVALID';
  override readonly name = 'ToolInputError';

  constructor({ message, cause }: ToolInputErrorOptions) {
    super({ message, cause });
  }
}
