/** One line of a JSONL audit log or one row of a SQLite one; `text` is undefined for a line too long to read. */
export interface AuditLogEntry {
  /** The line number (1-based), or the row's `seq`. */
  readonly position: number;
  readonly text: string | undefined;
}
