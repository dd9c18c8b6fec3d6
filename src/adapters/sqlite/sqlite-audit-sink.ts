import type { AuditRecord } from '../../audit/audit-record.js';
import type { AuditSink } from '../../audit/audit-sink.js';
import {
  type BufferedAuditSinkOptions,
  bufferedAuditSink,
  RECORD_BATCHES,
} from '../../audit/buffered-audit-sink.js';
import { DEFAULT_SQLITE_BUSY_TIMEOUT_MS } from '../../core/defaults.js';
import { openSqliteDatabase, type SqliteDatabase } from './open-sqlite-database.js';

/** Where `createSqliteAuditSink` writes, and the buffering it shares with every sink. */
export interface SqliteAuditSinkOptions extends BufferedAuditSinkOptions {
  /** The database file (it may be the store's); the table `toolwarden_audit` is created when absent. */
  readonly path: string;
  /** How long a write waits for a lock another connection holds (ms). */
  readonly busyTimeoutMs?: number;
}

const CREATE = `CREATE TABLE IF NOT EXISTS toolwarden_audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  schema_version INTEGER NOT NULL,
  kind TEXT NOT NULL,
  at TEXT NOT NULL,
  run_id TEXT,
  session_id TEXT,
  tool_call_id TEXT,
  tool_name TEXT,
  outcome TEXT NOT NULL,
  record TEXT NOT NULL
)`;

const INSERT = `INSERT INTO toolwarden_audit
  (schema_version, kind, at, run_id, session_id, tool_call_id, tool_name, outcome, record)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * An audit sink into one SQLite table: the fields a query filters on as columns, the whole record as JSON
 * in `record`. The database is opened (better-sqlite3, loaded lazily as the store does) on the first
 * write; each batch is inserted in one transaction. Failures are reported, never thrown.
 */
export function createSqliteAuditSink(options: SqliteAuditSinkOptions): AuditSink {
  let database: SqliteDatabase | undefined;
  let insert: ((records: readonly AuditRecord[]) => void) | undefined;
  const prepare = (opened: SqliteDatabase) => {
    opened.exec(CREATE);
    const statement = opened.prepare(INSERT);
    return opened.transaction((records: readonly AuditRecord[]) => {
      for (const record of records) statement.run(...row(record));
    });
  };
  return bufferedAuditSink(
    {
      ...RECORD_BATCHES,
      async write(records) {
        if (insert === undefined) {
          const opened = await openSqliteDatabase(
            options.path,
            options.busyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS,
          );
          try {
            insert = prepare(opened);
          } catch (error) {
            opened.close();
            throw error;
          }
          database = opened;
        }
        insert(records);
      },
      async release() {
        const opened = database;
        database = undefined;
        insert = undefined;
        opened?.close();
      },
      writeSync(records) {
        insert?.(records);
      },
    },
    options,
  );
}

function row(record: AuditRecord): readonly (string | number | null)[] {
  return [
    record.schemaVersion,
    record.kind,
    record.at,
    record.runId ?? null,
    record.sessionId ?? null,
    record.kind === 'call' ? record.toolCallId : null,
    record.kind === 'run' ? null : record.toolName,
    record.outcome,
    JSON.stringify(record),
  ];
}
