import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.FatalToolError');

/**
 * Thrown by a tool to mark a defect: the whole execution fails (`ToolExecutionError`, `TOOL_FATAL`) and keeps
 * the full record. The model sees `INTERNAL_ERROR`.
 */
export class FatalToolError extends ToolwardenError<'TOOL_DEFECT'> {
  override readonly name = 'FatalToolError';
  readonly [MARKER] = true;

  constructor({
    message,
    cause,
  }: {
    message: string;
    cause?: unknown;
  }) {
    super({ code: 'TOOL_DEFECT', message, cause });
  }

  static override isInstance(value: unknown): value is FatalToolError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
