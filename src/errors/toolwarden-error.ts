const MARKER = Symbol.for('toolwarden.error');

export interface ToolwardenErrorOptions {
  message: string;
  cause?: unknown;
}

/**
 * Base of every error toolwarden throws. `code` is stable and meant for programs; `message` for people.
 * `isInstance` works across two copies of the package (it checks a `Symbol.for` marker, not the prototype).
 */
export abstract class ToolwardenError extends Error {
  abstract readonly code: string;
  readonly [MARKER] = true;

  constructor({ message, cause }: ToolwardenErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
  }

  static isInstance(error: unknown): error is ToolwardenError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }

  static hasCode<C extends string>(error: unknown, code: C): error is ToolwardenError & { code: C } {
    return ToolwardenError.isInstance(error) && error.code === code;
  }
}
