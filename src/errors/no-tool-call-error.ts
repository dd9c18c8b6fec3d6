import { ToolwardenError } from './toolwarden-error.js';

export interface NoToolCallErrorOptions {
  message?: string;
}

/** `executeToolCalls` was given a model response that requests no tool call. */
export class NoToolCallError extends ToolwardenError {
  readonly code = 'NO_TOOL_CALL';
  override readonly name = 'NoToolCallError';

  constructor({ message = 'No tool call requested by the model response.' }: NoToolCallErrorOptions = {}) {
    super({ message });
  }
}
