import type { ToolExecutionResult } from '../tool-execution-result.js';
import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ToolExecutionError');

/**
 * A tool failed with a fatal error (a defect). The execution stops; the full record is kept. The model sees
 * `INTERNAL_ERROR` for the failed call; in the loop this is the stop reason `TOOL_FATAL`.
 */
export class ToolExecutionError extends ToolwardenError<'TOOL_FATAL'> {
  override readonly name = 'ToolExecutionError';
  readonly toolName: string;
  readonly toolCallId: string;
  readonly partialResult: ToolExecutionResult;
  readonly [MARKER] = true;

  constructor({
    message,
    toolName,
    toolCallId,
    cause,
    partialResult,
  }: {
    message: string;
    toolName: string;
    toolCallId: string;
    /** The original failure, untouched. */
    cause: unknown;
    /** Every call's result, the failed one included, so nothing is lost. */
    partialResult: ToolExecutionResult;
  }) {
    super({ code: 'TOOL_FATAL', message, cause });
    this.toolName = toolName;
    this.toolCallId = toolCallId;
    this.partialResult = partialResult;
  }

  static override isInstance(value: unknown): value is ToolExecutionError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
