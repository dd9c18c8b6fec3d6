import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.NoToolCallError');

export interface NoToolCallErrorOptions {
  message?: string;
}

/** `executeToolCalls` was given a model response that requests no tool call. */
export class NoToolCallError extends ToolwardenError<'NO_TOOL_CALL'> {
  override readonly name = 'NoToolCallError';
  readonly [MARKER] = true;

  constructor({ message = 'No tool call requested by the model response.' }: NoToolCallErrorOptions = {}) {
    super({ code: 'NO_TOOL_CALL', message });
  }

  static override isInstance(value: unknown): value is NoToolCallError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
