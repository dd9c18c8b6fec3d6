import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AUDIT_SCHEMA_VERSION } from '../audit/audit-record.js';
import { StoreError } from '../core/errors/store-error.js';
import { AuditLogError } from './audit-log-error.js';
import type { AuditReport } from './audit-report.js';
import { isSqliteFile, readAuditLog } from './read-audit-log.js';
import { ReportBuilder } from './report-builder.js';
import { parseReportInput } from './report-input.js';

/**
 * The report of an audit log: a JSONL file of `createJsonlAuditSink` or a SQLite database of
 * `createSqliteAuditSink`, streamed (memory does not grow with the log). Lines that are not records are
 * counted as skipped, never fatal, beside records. Rejects with `AuditLogError` when the file cannot be
 * read as a log, or when none of its lines is a record (`not-an-audit-log`: a package.json, a log of
 * another schema version). An empty file is an empty log (a sink that has written nothing yet).
 */
export async function reportAuditLog(path: string): Promise<AuditReport> {
  await requireFile(path);
  const builder = new ReportBuilder(basename(path));
  try {
    for await (const entry of readAuditLog(path)) {
      const input = entry.text === undefined ? undefined : parseReportInput(entry.text);
      if (input === undefined) builder.countUnreadable(entry.position);
      else builder.add(input);
    }
  } catch (error) {
    throw asAuditLogError(path, error);
  }
  const report = builder.finish();
  const { calls, runs, skipped, firstSkipped } = report.records;
  if (calls === 0 && runs === 0 && skipped > 0) {
    const unit = (await isSqliteFile(path)) ? 'row' : 'line';
    throw new AuditLogError({
      path,
      problem: 'not-an-audit-log',
      message: `${path} is not an audit log: none of its ${skipped} ${unit}${skipped === 1 ? '' : 's'} is an audit record of schema version 1 or ${AUDIT_SCHEMA_VERSION} (${unit} ${firstSkipped.join(', ')}${skipped > firstSkipped.length ? ', ...' : ''})`,
    });
  }
  return report;
}

async function requireFile(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'ENOENT';
    throw new AuditLogError({
      path,
      problem: missing ? 'not-found' : 'read-failed',
      message: missing ? `no such file: ${path}` : `cannot read ${path}: ${String(error)}`,
      cause: error,
    });
  }
  if (!isFile) {
    throw new AuditLogError({ path, problem: 'not-a-file', message: `${path} is not a file` });
  }
}

function asAuditLogError(path: string, error: unknown): AuditLogError {
  if (AuditLogError.isInstance(error)) return error;
  if (StoreError.isInstance(error)) {
    // The SQLite driver is missing or not built: the store's message says how to install it.
    return new AuditLogError({ path, problem: 'driver-missing', message: error.message, cause: error });
  }
  const text = error instanceof Error ? error.message : String(error);
  return new AuditLogError({
    path,
    problem: 'read-failed',
    message: `cannot read ${path}: ${text}`,
    cause: error,
  });
}
