import type { AuditRunRecord } from '../audit-record.js';

/** The record of a finished run, for the sinks' tests. */
export function runRecord(runId = 'r'): AuditRunRecord {
  return {
    schemaVersion: 2,
    kind: 'run',
    at: '2026-12-01T12:00:00.000Z',
    runId,
    resumed: false,
    outcome: 'completed',
    roundTrips: 1,
    toolCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  };
}
