import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ToolInputError');

/** Thrown by a tool to say the model can fix the call (bad arguments, a business rule): `TOOL_ERROR`. */
export class ToolInputError extends ToolwardenError<'TOOL_ERROR'> {
  override readonly name = 'ToolInputError';
  readonly [MARKER] = true;

  constructor({
    message,
    cause,
  }: {
    /** Shown to the model after redaction: say what to change. */
    message: string;
    cause?: unknown;
  }) {
    super({ code: 'TOOL_ERROR', message, cause });
  }

  static override isInstance(value: unknown): value is ToolInputError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
