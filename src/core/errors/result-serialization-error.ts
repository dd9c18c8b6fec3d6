import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.ResultSerializationError');

/** A tool returned a value that cannot become text (a defect in the tool): classified as fatal. */
export class ResultSerializationError extends ToolwardenError<'RESULT_NOT_SERIALIZABLE'> {
  override readonly name = 'ResultSerializationError';
  readonly toolName: string;
  readonly reason: string;
  readonly path: string;
  readonly [MARKER] = true;

  constructor({
    toolName,
    reason,
    path,
    message,
  }: {
    toolName: string;
    /** Why: `circular`, `function`, `symbol`, `too-deep`, ... */
    reason: string;
    /** Where in the result, as a JSON Pointer. */
    path: string;
    message: string;
  }) {
    super({ code: 'RESULT_NOT_SERIALIZABLE', message });
    this.toolName = toolName;
    this.reason = reason;
    this.path = path;
  }

  static override isInstance(value: unknown): value is ResultSerializationError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
