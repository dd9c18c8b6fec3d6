import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { formatRow } from './measure.js';

/** The figure: a report over an audit log of a million calls. */
const CALLS = 1_000_000;
const CALLS_PER_RUN = 10;
const TOOLS = ['getPrice', 'searchOrders', 'sendInvite', 'getJobStatus', 'readConfig', 'lookupContact'];
const OUTCOMES = [
  'success',
  'success',
  'success',
  'success',
  'success',
  'success',
  'invalid-input',
  'transient',
];

const run = promisify(execFile);

/**
 * `toolwarden report` over a JSONL audit log of `CALLS` call records (and one run record per
 * `CALLS_PER_RUN`), written here as `createJsonlAuditSink` writes them: the seconds it takes and its peak
 * memory (the child process's max RSS), beside the file's size. The report streams: its memory must not
 * follow the file's size.
 */
export async function benchReport(): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'toolwarden-bench-report-'));
  try {
    const path = join(folder, 'audit.jsonl');
    await writeAuditLog(path);
    const size = statSync(path).size;
    const script = `
      const { reportAuditLog } = await import(${JSON.stringify(new URL('../dist/report/report-audit-log.js', import.meta.url).href)});
      const started = performance.now();
      const report = await reportAuditLog(${JSON.stringify(path)});
      const seconds = (performance.now() - started) / 1000;
      console.log(JSON.stringify({ seconds, maxRssKiB: process.resourceUsage().maxRSS, calls: report.records.calls, runs: report.records.runs, p95: report.rounds.p95, rate: report.repeats.rate }));
    `;
    const baseline = JSON.parse(
      (
        await run(process.execPath, [
          '--input-type=module',
          '-e',
          'console.log(JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS }))',
        ])
      ).stdout,
    ) as { maxRssKiB: number };
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      maxBuffer: 1 << 20,
    });
    const measured = JSON.parse(stdout) as {
      seconds: number;
      maxRssKiB: number;
      calls: number;
      runs: number;
      p95: number;
      rate: number;
    };
    if (measured.calls !== CALLS || measured.runs !== CALLS / CALLS_PER_RUN) {
      throw new Error(`the report read ${measured.calls} calls and ${measured.runs} runs`);
    }
    return [
      `toolwarden report over an audit log of ${CALLS.toLocaleString('en-US')} calls (JSONL, ${mib(size)} MiB), in a child process`,
      formatRow(['records', 'seconds', 'records/s', 'peak RSS MiB', 'node alone MiB', 'file MiB']),
      formatRow([
        (measured.calls + measured.runs).toLocaleString('en-US'),
        measured.seconds.toFixed(2),
        Math.round((measured.calls + measured.runs) / measured.seconds).toLocaleString('en-US'),
        (measured.maxRssKiB / 1024).toFixed(0),
        (baseline.maxRssKiB / 1024).toFixed(0),
        mib(size),
      ]),
      `  (report: P95 ${measured.p95} rounds, hit rate ${(measured.rate * 100).toFixed(1)}%; streamed: the peak is not the file's size)`,
    ];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Records as the JSONL sink writes them, one run's calls then its run record. */
async function writeAuditLog(path: string): Promise<void> {
  const out = createWriteStream(path);
  const start = Date.parse('2026-11-01T00:00:00.000Z');
  let lines: string[] = [];
  for (let index = 0; index < CALLS; index++) {
    const runIndex = Math.floor(index / CALLS_PER_RUN);
    const runId = `run-${runIndex}`;
    const at = new Date(start + index * 1_000).toISOString();
    const outcome = OUTCOMES[index % OUTCOMES.length] as string;
    // Every seventh call repeats its run's previous arguments.
    const digest = `${(index % 7 === 0 ? index - 1 : index).toString(16).padStart(64, '0')}`;
    lines.push(
      JSON.stringify({
        schemaVersion: 2,
        kind: 'call',
        at,
        runId,
        sessionId: `session-${runIndex % 1000}`,
        toolCallId: `call-${index}`,
        toolName: TOOLS[index % TOOLS.length],
        argumentsSummary: `{"id":"${index % 5000}"}`,
        argumentsDigest: digest,
        outcome,
        ...(outcome === 'success'
          ? {}
          : { code: outcome === 'transient' ? 'TOOL_UNAVAILABLE' : 'INVALID_ARGUMENTS' }),
        durationMs: (index % 997) / 10,
        attempts: 1,
        retries: 0,
        replay: false,
      }),
    );
    if (index % CALLS_PER_RUN === CALLS_PER_RUN - 1) {
      lines.push(
        JSON.stringify({
          schemaVersion: 2,
          kind: 'run',
          at,
          runId,
          resumed: false,
          outcome: runIndex % 20 === 0 ? 'stopped' : 'completed',
          ...(runIndex % 20 === 0 ? { stopReason: 'LOOP_DETECTED' } : {}),
          roundTrips: 2 + (runIndex % 9),
          maxRoundTrips: 50,
          toolCalls: CALLS_PER_RUN,
          usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 },
        }),
      );
    }
    if (lines.length >= 10_000) {
      if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
      lines = [];
    }
  }
  out.end(lines.length > 0 ? `${lines.join('\n')}\n` : '');
  await once(out, 'finish');
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}
