import { ToolwardenError } from './toolwarden-error.js';

export interface ResultSerializationErrorOptions {
  toolName: string;
  /** Why: `circular`, `function`, `symbol`, `too-deep`, ... */
  reason: string;
  /** Where in the result, as a JSON Pointer. */
  path: string;
  message: string;
}

/** A tool returned a value that cannot become text (a defect in the tool): classified as fatal. */
export class ResultSerializationError extends ToolwardenError {
  readonly code = 'RESULT_NOT_SERIALIZABLE';
  override readonly name = 'ResultSerializationError';
  readonly toolName: string;
  readonly reason: string;
  readonly path: string;

  constructor({ toolName, reason, path, message }: ResultSerializationErrorOptions) {
    super({ message });
    this.toolName = toolName;
    this.reason = reason;
    this.path = path;
  }
}
