import { loadSqliteDriver } from '../adapters/sqlite/open-sqlite-database.js';
import type { AuditLogEntry } from './audit-log-entry.js';
import { AuditLogError } from './audit-log-error.js';

/**
 * The rows of the audit table of `createSqliteAuditSink`, in the order they were written, read one at a
 * time from a database opened read-only (a report never changes the log, and may run beside the writer).
 */
export async function* readSqliteAuditLog(path: string): AsyncGenerator<AuditLogEntry> {
  const Database = await loadSqliteDriver();
  const database = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const table = database
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'toolwarden_audit'")
      .get();
    if (table === undefined) {
      throw new AuditLogError({
        path,
        problem: 'not-an-audit-log',
        message: `${path} is a SQLite database without a toolwarden_audit table (createSqliteAuditSink writes one)`,
      });
    }
    const rows = database
      .prepare('SELECT seq, record FROM toolwarden_audit ORDER BY seq')
      .iterate() as Iterable<{
      seq: number;
      record: unknown;
    }>;
    for (const row of rows) {
      yield { position: row.seq, text: typeof row.record === 'string' ? row.record : undefined };
    }
  } finally {
    database.close();
  }
}
