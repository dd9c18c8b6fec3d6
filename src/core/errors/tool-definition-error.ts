import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ToolDefinitionError');

/** A tool definition or registry is invalid: the caller's configuration is to blame. */
export class ToolDefinitionError extends ToolwardenError<'TOOL_DEFINITION_INVALID'> {
  override readonly name = 'ToolDefinitionError';
  readonly toolName: string;
  readonly [MARKER] = true;

  constructor({
    toolName,
    message,
    cause,
  }: {
    /** The tool's name as given (may be empty or hostile: shown escaped and shortened). */
    toolName: string;
    /** What is wrong and how to fix it. */
    message: string;
    cause?: unknown;
  }) {
    super({ code: 'TOOL_DEFINITION_INVALID', message, cause });
    this.toolName = toolName;
  }

  static override isInstance(value: unknown): value is ToolDefinitionError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
