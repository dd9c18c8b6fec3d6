import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.InvalidOptionsError');

/** An option given to a toolwarden function is invalid: the caller's configuration is to blame. */
export class InvalidOptionsError extends ToolwardenError<'INVALID_OPTIONS'> {
  override readonly name = 'InvalidOptionsError';
  readonly option: string;
  readonly [MARKER] = true;

  constructor({
    option,
    message,
  }: {
    /** The option at fault, as a dotted path (`limits.perTool`). */
    option: string;
    message: string;
  }) {
    super({ code: 'INVALID_OPTIONS', message: `Invalid option ${option}: ${message}` });
    this.option = option;
  }

  static override isInstance(value: unknown): value is InvalidOptionsError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
