import { ToolwardenError } from './toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.RunStateError');

/** Characters of the path shown in the message, at most (the path may hold keys of a hostile state). */
const MAX_PATH_CHARS = 200;

/** A saved run state cannot be resumed. Nothing of it is applied: the caller's stored state is to blame. */
export class RunStateError extends ToolwardenError<'INVALID_RUN_STATE'> {
  override readonly name = 'RunStateError';
  /**
   * Why a saved run state is refused: `malformed` (not the shape of a run state), `unsupported-version` (a
   * `schemaVersion` this release cannot read), `tampered` (well-formed, but its parts do not agree).
   */
  readonly reason: 'malformed' | 'unsupported-version' | 'tampered';
  readonly path: string | undefined;
  readonly [MARKER] = true;

  constructor({
    reason,
    path,
    message,
    cause,
  }: {
    reason: RunStateError['reason'];
    /** Where in the state, as a JSON Pointer (`/pendingCalls/0/id`). */
    path?: string | undefined;
    message: string;
    cause?: unknown;
  }) {
    const where =
      path === undefined
        ? ''
        : ` at ${path.length > MAX_PATH_CHARS ? `${path.slice(0, MAX_PATH_CHARS)}…` : path}`;
    super({
      code: 'INVALID_RUN_STATE',
      message: `Cannot resume the run state (${reason}${where}): ${message}`,
      cause,
    });
    this.reason = reason;
    this.path = path;
  }

  static override isInstance(value: unknown): value is RunStateError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
