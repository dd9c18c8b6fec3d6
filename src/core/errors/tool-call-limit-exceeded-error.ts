import type { LimitScope, ToolExecutionResult } from '../tool-execution-result.js';
import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ToolCallLimitExceededError');

/** A per-turn call limit was exceeded. Work is never thrown away: `partialResult` holds it all. */
export class ToolCallLimitExceededError extends ToolwardenError<'TOOL_CALL_LIMIT'> {
  override readonly name = 'ToolCallLimitExceededError';
  readonly scope: LimitScope;
  readonly limit: number;
  readonly toolName: string;
  readonly partialResult: ToolExecutionResult;
  readonly [MARKER] = true;

  constructor({
    message,
    scope,
    limit,
    toolName,
    partialResult,
  }: {
    message: string;
    /** `per-tool` when one tool's cap was hit, `total` when the turn's cap was. */
    scope: LimitScope;
    limit: number;
    /** The tool whose call was refused first. */
    toolName: string;
    /** Everything that was executed, with a tool response for every call (refused ones say why). */
    partialResult: ToolExecutionResult;
  }) {
    super({ code: 'TOOL_CALL_LIMIT', message });
    this.scope = scope;
    this.limit = limit;
    this.toolName = toolName;
    this.partialResult = partialResult;
  }

  static override isInstance(value: unknown): value is ToolCallLimitExceededError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
