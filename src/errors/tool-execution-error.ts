import type { ToolExecutionResult } from '../chain/tool-execution-result.js';
import { ToolwardenError } from './toolwarden-error.js';

export interface ToolExecutionErrorOptions {
  message: string;
  toolName: string;
  toolCallId: string;
  /** The original failure, untouched. */
  cause: unknown;
  /** Every call's result, the failed one included, so nothing is lost. */
  partialResult: ToolExecutionResult;
}

/** A tool failed with a fatal error (a defect). The execution stops; the full record is kept. */
export class ToolExecutionError extends ToolwardenError {
  readonly code = 'TOOL_EXECUTION_FATAL';
  override readonly name = 'ToolExecutionError';
  readonly toolName: string;
  readonly toolCallId: string;
  readonly partialResult: ToolExecutionResult;

  constructor({ message, toolName, toolCallId, cause, partialResult }: ToolExecutionErrorOptions) {
    super({ message, cause });
    this.toolName = toolName;
    this.toolCallId = toolCallId;
    this.partialResult = partialResult;
  }
}
