import type { AuditRecord } from '../audit-record.js';
import type { AuditSink } from '../audit-sink.js';

/** A sink that keeps its records in an array: the audit tests' view of what a run wrote. */
export function memoryAuditSink(): AuditSink & { readonly records: AuditRecord[] } {
  const records: AuditRecord[] = [];
  return {
    records,
    append: (record) => {
      records.push(record);
    },
    flush: async () => {},
    close: async () => {},
  };
}
