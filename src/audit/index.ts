export { type AuditListenerOptions, auditListener } from './audit-listener.js';
export {
  AUDIT_SCHEMA_VERSION,
  type AuditCallRecord,
  type AuditRecord,
  type AuditRunIds,
  type AuditRunRecord,
} from './audit-record.js';
export { type AuditContext, auditRecordOf } from './audit-record-of.js';
export type { AuditErrorListener, AuditSink, AuditSinkFailure } from './audit-sink.js';
export {
  type AuditWriter,
  type BufferedAuditSinkOptions,
  bufferedAuditSink,
  RECORD_BATCHES,
} from './buffered-audit-sink.js';
export { createJsonlAuditSink, type JsonlAuditSinkOptions } from './jsonl-audit-sink.js';
