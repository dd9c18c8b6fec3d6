import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.PermissionDeniedError');

/** Thrown by a tool (or a permission check) to deny an action. The model learns only that it is not permitted. */
export class PermissionDeniedError extends ToolwardenError<'PERMISSION_DENIED'> {
  override readonly name = 'PermissionDeniedError';
  readonly [MARKER] = true;

  constructor({
    message,
    cause,
  }: {
    /** For developers and the audit log only: the model never sees it. */
    message: string;
    cause?: unknown;
  }) {
    super({ code: 'PERMISSION_DENIED', message, cause });
  }

  static override isInstance(value: unknown): value is PermissionDeniedError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
