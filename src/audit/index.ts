// toolwarden/audit: the audit log, one record per finished tool call and per run, written by a sink (a JSONL
// file here, a SQLite table in toolwarden/sqlite) that never blocks or throws into the run.
export { type AuditListenerOptions, auditListener } from './audit-listener.js';
export {
  AUDIT_SCHEMA_VERSION,
  type AuditCallRecord,
  type AuditRecord,
  type AuditRunRecord,
  type AuditSecretFinding,
  type AuditToolDefinitionRecord,
  type ProxyRefusalCode,
} from './audit-record.js';
export type { AuditSink, AuditSinkFailure } from './audit-sink.js';
export {
  type AuditWriter,
  type BufferedAuditSinkOptions,
  bufferedAuditSink,
} from './buffered-audit-sink.js';
export { createJsonlAuditSink, type JsonlAuditSinkOptions } from './jsonl-audit-sink.js';
