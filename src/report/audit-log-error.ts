import { ToolwardenError } from '../core/errors/toolwarden-error.js';

const MARKER = Symbol.for('toolwarden.error.AuditLogError');

/**
 * Why an audit log could not be read: `not-found`, `not-a-file`, `not-an-audit-log` (a SQLite database
 * without the audit table, or a file none of whose lines or rows is an audit record), `driver-missing` (a
 * SQLite log without better-sqlite3), `read-failed`.
 */
export type AuditLogProblem =
  | 'not-found'
  | 'not-a-file'
  | 'not-an-audit-log'
  | 'driver-missing'
  | 'read-failed';

/** What an `AuditLogError` is made of. */
export interface AuditLogErrorOptions {
  /** The log as the user named it. */
  path: string;
  /** Why it could not be read. */
  problem: AuditLogProblem;
  /** The error's message. */
  message: string;
  /** The error underneath, when there was one. */
  cause?: unknown;
}

/** `toolwarden report` was pointed at something it cannot read as an audit log: the caller is to blame. */
export class AuditLogError extends ToolwardenError<'AUDIT_LOG_UNREADABLE'> {
  override readonly name = 'AuditLogError';
  /** The log as the user named it. */
  readonly path: string;
  /** Why it could not be read. */
  readonly problem: AuditLogProblem;
  readonly [MARKER] = true;

  constructor({ path, problem, message, cause }: AuditLogErrorOptions) {
    super({ code: 'AUDIT_LOG_UNREADABLE', message, cause });
    this.path = path;
    this.problem = problem;
  }

  static override isInstance(value: unknown): value is AuditLogError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}
