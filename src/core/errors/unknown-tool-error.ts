import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.UnknownToolError');

/** The model asked for a tool that is not registered (thrown only under `unknownTool: 'throw'`). */
export class UnknownToolError extends ToolwardenError<'UNKNOWN_TOOL'> {
  override readonly name = 'UnknownToolError';
  readonly toolName: string;
  readonly toolCallId: string;
  readonly availableTools: readonly string[];
  readonly [MARKER] = true;

  constructor({
    toolName,
    toolCallId,
    availableTools,
    message,
  }: {
    toolName: string;
    toolCallId: string;
    availableTools: readonly string[];
    message: string;
  }) {
    super({ code: 'UNKNOWN_TOOL', message });
    this.toolName = toolName;
    this.toolCallId = toolCallId;
    this.availableTools = availableTools;
  }

  static override isInstance(value: unknown): value is UnknownToolError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
