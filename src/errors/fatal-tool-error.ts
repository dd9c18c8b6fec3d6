import { ToolwardenError } from './toolwarden-error.js';

export interface FatalToolErrorOptions {
  message: string;
  cause?: unknown;
}

/** Thrown by a tool to mark a defect: the whole execution fails and keeps the full record. */
export class FatalToolError extends ToolwardenError {
  readonly code = 'TOOL_FATAL';
  override readonly name = 'FatalToolError';

  constructor({ message, cause }: FatalToolErrorOptions) {
    super({ message, cause });
  }
}
