import { ToolwardenError } from './toolwarden-error.js';

export interface InvalidOptionsErrorOptions {
  /** The option at fault, as a dotted path (`limits.perTool`). */
  option: string;
  message: string;
}

/** An option given to a toolwarden function is invalid: the caller's configuration is to blame. */
export class InvalidOptionsError extends ToolwardenError {
  readonly code = 'INVALID_OPTIONS';
  override readonly name = 'InvalidOptionsError';
  readonly option: string;

  constructor({ option, message }: InvalidOptionsErrorOptions) {
    super({ message: `Invalid option ${option}: ${message}` });
    this.option = option;
  }
}
