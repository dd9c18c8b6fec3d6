import type { ToolExecutionResult } from '../chain/tool-execution-result.js';
import type { LoopOutcome } from '../run/loop-outcome.js';
import { ToolwardenError } from './toolwarden-error.js';

export interface CallbackErrorOptions {
  /** Which callback: `handoff`, `fallback`, `cost`, `store.load`, `store.save`, `beforeToolCall`, ... */
  callback: string;
  cause: unknown;
  partialResult?: ToolExecutionResult;
  outcome?: LoopOutcome;
  message?: string;
}

/** A callback the caller passed threw or returned what it must not; the work done so far is carried. */
export class CallbackError extends ToolwardenError {
  readonly code = 'CALLBACK_FAILED';
  override readonly name = 'CallbackError';
  readonly callback: string;
  readonly partialResult: ToolExecutionResult | undefined;
  readonly outcome: LoopOutcome | undefined;

  constructor({ callback, cause, partialResult, outcome, message }: CallbackErrorOptions) {
    super({ message: message ?? `The ${callback} callback failed.`, cause });
    this.callback = callback;
    this.partialResult = partialResult;
    this.outcome = outcome;
  }
}
