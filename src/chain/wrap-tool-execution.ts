import type { ToolCallResult } from '../core/tool-execution-result.js';
import type { AnyTool } from '../tools/define-tool.js';

/** The call a `wrapToolExecution` middleware wraps. */
export interface WrappedToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly tool: AnyTool;
  /** The validated arguments. */
  readonly arguments: unknown;
  readonly turnId: string | undefined;
  readonly sessionId: string | undefined;
  readonly data: unknown;
}

/**
 * Middleware around one call: `next` runs the call's attempts (timeout, retries) and delivers its result;
 * it never rejects. Resolve with what `next` gave (or another result for the same call). A wrapper that
 * throws, or resolves with something that is not a result of this call, is a caller defect.
 */
export type WrapToolExecution = (
  call: WrappedToolCall,
  next: () => Promise<ToolCallResult>,
) => Promise<ToolCallResult>;

/** True when `value` is a well-formed result of the call `toolCallId`. Never throws. */
export function isResultOf(value: unknown, toolCallId: string): value is ToolCallResult {
  if (typeof value !== 'object' || value === null) return false;
  try {
    const result = value as Partial<Record<string, unknown>>;
    if (result.toolCallId !== toolCallId || typeof result.toolName !== 'string') return false;
    if (typeof result.content !== 'string') return false;
    if (result.type === 'success') return true;
    return (
      result.type === 'error' && typeof result.code === 'string' && typeof result.errorClass === 'string'
    );
  } catch {
    return false;
  }
}
