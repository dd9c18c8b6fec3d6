import { ToolwardenError } from './toolwarden-error.js';

export interface UnknownToolErrorOptions {
  toolName: string;
  toolCallId: string;
  availableTools: readonly string[];
  message: string;
}

/** The model asked for a tool that is not registered (thrown only under `unknownTool: 'throw'`). */
export class UnknownToolError extends ToolwardenError {
  readonly code = 'UNKNOWN_TOOL';
  override readonly name = 'UnknownToolError';
  readonly toolName: string;
  readonly toolCallId: string;
  readonly availableTools: readonly string[];

  constructor({ toolName, toolCallId, availableTools, message }: UnknownToolErrorOptions) {
    super({ message });
    this.toolName = toolName;
    this.toolCallId = toolCallId;
    this.availableTools = availableTools;
  }
}
