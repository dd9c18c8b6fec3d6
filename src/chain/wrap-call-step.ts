import type { ToolCallResult } from '../core/tool-execution-result.js';
import type { LimitScope } from './call-limits.js';
import type { WrappedToolCall } from './wrap-tool-execution.js';

/**
 * What one call's run gave: its result, and what the chain records beside it (the store failed, a limit
 * was met, a callback failed). A driver that checkpoints the result (a durable step) keeps these with it,
 * so a replay decides as the first run did.
 */
export interface CallReport {
  readonly result: ToolCallResult;
  readonly storeFailure?: { readonly toolName: string; readonly error: unknown };
  readonly limited?: {
    readonly toolName: string;
    readonly limit: { readonly scope: LimitScope; readonly limit: number };
  };
  readonly callbackFailure?: { readonly callback: string; readonly error: unknown };
}

/**
 * A driver's wrapper around the whole run of one admitted call: its idempotency record (claim, replay,
 * settle) and its execution (inside `wrapToolExecution`) together, so a checkpoint taken around it never
 * separates a write from its record. Not a user option: a driver (the DBOS adapter) sets it through
 * `createDrivenRuntime`. `next` never rejects unless the chain has a defect.
 */
export type WrapCallStep = (call: WrappedToolCall, next: () => Promise<CallReport>) => Promise<CallReport>;
