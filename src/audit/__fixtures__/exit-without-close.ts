// Another process: appends two records to the JSONL file at argv[2] and exits at once, without a flush or
// close (the scheduled write never runs). Used by jsonl-audit-sink.test.ts for the last write at exit.
import { createJsonlAuditSink } from '../jsonl-audit-sink.js';

const sink = createJsonlAuditSink({ path: process.argv[2] ?? 'audit.jsonl' });
for (const runId of ['r1', 'r2']) {
  sink.append({
    schemaVersion: 1,
    kind: 'run',
    at: '2026-12-01T12:00:00.000Z',
    runId,
    resumed: false,
    outcome: 'completed',
    roundTrips: 1,
    toolCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  });
}
process.exit(0);
