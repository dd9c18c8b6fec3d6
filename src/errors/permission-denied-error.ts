import { ToolwardenError } from './toolwarden-error.js';

export interface PermissionDeniedErrorOptions {
  /** For developers and the audit log only: the model never sees it. */
  message: string;
  cause?: unknown;
}

/** Thrown by a tool (or a permission check) to deny an action. The model learns only that it is not permitted. */
export class PermissionDeniedError extends ToolwardenError {
  readonly code = 'PERMISSION_DENIED';
  override readonly name = 'PermissionDeniedError';

  constructor({ message, cause }: PermissionDeniedErrorOptions) {
    super({ message, cause });
  }
}
