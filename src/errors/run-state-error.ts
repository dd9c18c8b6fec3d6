import { ToolwardenError } from './toolwarden-error.js';

export interface RunStateErrorOptions {
  reason: 'malformed' | 'unsupported-version' | 'tampered';
  path?: string;
  message: string;
  cause?: unknown;
}

/** A saved run state that cannot be resumed: nothing of it was applied. */
export class RunStateError extends ToolwardenError {
  readonly code = 'INVALID_RUN_STATE';
  override readonly name = 'RunStateError';
  readonly reason: RunStateErrorOptions['reason'];
  readonly path: string | undefined;

  constructor({ reason, path, message, cause }: RunStateErrorOptions) {
    super({ message, cause });
    this.reason = reason;
    this.path = path;
  }
}
