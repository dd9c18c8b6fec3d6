import { ToolwardenError } from './toolwarden-error.js';

export interface ToolDefinitionErrorOptions {
  /** The tool's name as given (may be empty or hostile: shown escaped and shortened). */
  toolName: string;
  /** What is wrong and how to fix it. */
  message: string;
  cause?: unknown;
}

/** A tool definition or registry is invalid: the caller's configuration is to blame. */
export class ToolDefinitionError extends ToolwardenError {
  readonly code = 'TOOL_DEFINITION_INVALID';
  override readonly name = 'ToolDefinitionError';
  readonly toolName: string;

  constructor({ toolName, message, cause }: ToolDefinitionErrorOptions) {
    super({ message, cause });
    this.toolName = toolName;
  }
}
