import type { ToolExecutionResult } from '../chain/tool-execution-result.js';
import { ToolwardenError } from './toolwarden-error.js';

export interface CallbackErrorOptions {
  /** The option that holds the failing callback (`beforeToolCall`, `wrapToolExecution`, ...). */
  callback: string;
  /** What the callback threw, or why its answer was refused. */
  cause: unknown;
  /** The execution so far, when there was one. */
  partialResult?: ToolExecutionResult;
  message?: string;
}

/** A callback the caller passed threw or answered something it may not: the caller's code is to blame. */
export class CallbackError extends ToolwardenError {
  readonly code = 'CALLBACK_FAILED';
  override readonly name = 'CallbackError';
  readonly callback: string;
  readonly partialResult: ToolExecutionResult | undefined;

  constructor({ callback, cause, partialResult, message }: CallbackErrorOptions) {
    super({ message: message ?? `The ${callback} callback failed: ${describe(cause)}`, cause });
    this.callback = callback;
    this.partialResult = partialResult;
  }
}

function describe(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'a value that cannot be printed';
  }
}
