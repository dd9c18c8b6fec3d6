// Another process: appends two records to the JSONL file at argv[2] and exits at once, without a flush or
// close (the scheduled write never runs). Used by jsonl-audit-sink.test.ts for the last write at exit.
import { createJsonlAuditSink } from '../jsonl-audit-sink.js';
import { runRecord } from './run-record.js';

const sink = createJsonlAuditSink({ path: process.argv[2] ?? 'audit.jsonl' });
for (const runId of ['r1', 'r2']) sink.append(runRecord(runId));
process.exit(0);
