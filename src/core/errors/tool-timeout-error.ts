import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ToolTimeoutError');

/** A tool did not settle within its timeout. Classified as transient: the model sees `TOOL_UNAVAILABLE`. */
export class ToolTimeoutError extends ToolwardenError<'TOOL_TIMEOUT'> {
  override readonly name = 'ToolTimeoutError';
  readonly toolName: string;
  readonly timeoutMs: number;
  readonly [MARKER] = true;

  constructor({
    toolName,
    timeoutMs,
  }: {
    toolName: string;
    timeoutMs: number;
  }) {
    super({ code: 'TOOL_TIMEOUT', message: `Tool "${toolName}" did not finish within ${timeoutMs} ms` });
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(value: unknown): value is ToolTimeoutError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
