import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeThrown } from '../check/preview-value.js';
import { MIN_RUNS_FOR_CEILING } from '../core/defaults.js';
import { AuditLogError } from '../report/audit-log-error.js';
import type { AuditReport } from '../report/audit-report.js';
import { evaluateFailOn, FAIL_ON_METRICS, type FailOnCondition, parseFailOn } from '../report/fail-on.js';
import { renderReportHtml } from '../report/render-report-html.js';
import { renderReportText } from '../report/render-report-text.js';
import { reportAuditLog } from '../report/report-audit-log.js';
import { argumentErrorMessage } from './argument-error-message.js';
import type { CommandIo } from './command-io.js';

export const REPORT_USAGE = `Usage: toolwarden report <audit.jsonl | audit.sqlite> [--json <file>] [--html <file>] [--fail-on <condition>]

Reads an audit log (createJsonlAuditSink's JSONL file, createSqliteAuditSink's database, the MCP proxy's
audit log), streamed, and prints where to set the ceiling (rounds per run: P50/P95/P99, P95 + 2 beside the
configured ceiling, recommended from ${MIN_RUNS_FOR_CEILING} finished runs or more), the repeated-fingerprint
hit rate (overall and over time), the top tools by repeats, contract violations and errors, stops by
reason, calls refused by a limit or the loop guard, tool latency of the calls that ran, error classes and
who decided (a person, allow-and-audit unconfirmed, a policy). A log of calls only (the MCP proxy's) has
no run figures, and says so.

Options:
  --json <file>          also write the report as JSON (- for stdout, instead of the text)
  --html <file>          also write the report as one self-contained HTML page with charts
  --fail-on <condition>  exit 1 when the condition holds, e.g. 'repeat-rate>0.05' (repeatable, or
                         comma-separated); metrics: ${FAIL_ON_METRICS.join(', ')}
  -h, --help             show this text

Exit codes: 0 no condition met, 1 a --fail-on condition met, 2 usage error (bad arguments, a file that is
not an audit log: none of its lines is a record). An empty file is an empty log: exit 0.
`;

type ReportArgs =
  | {
      kind: 'run';
      path: string;
      json: string | undefined;
      html: string | undefined;
      failOn: readonly FailOnCondition[];
    }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string };

/** `toolwarden report`: returns the exit code (0 ok, 1 a --fail-on condition met, 2 usage error). */
export async function runReportCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseReportArgs(args);
  switch (parsed.kind) {
    case 'usage-error':
      await io.stderr(`toolwarden report: ${parsed.message}\n\n${REPORT_USAGE}`);
      return 2;
    case 'help':
      await io.stdout(REPORT_USAGE);
      return 0;
    case 'run':
      return runReport(parsed, io);
    default: {
      const unreachable: never = parsed;
      throw new TypeError(`unknown arguments ${String(unreachable)}`);
    }
  }
}

async function runReport(args: Extract<ReportArgs, { kind: 'run' }>, io: CommandIo): Promise<number> {
  let report: AuditReport;
  try {
    report = await reportAuditLog(resolve(io.cwd, args.path));
  } catch (error) {
    if (!AuditLogError.isInstance(error)) throw error;
    await io.stderr(`toolwarden report: ${error.message}\n`);
    return 2;
  }
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (args.json === '-') await io.stdout(json);
  else await io.stdout(renderReportText(report));
  const written: string[] = [];
  try {
    if (args.json !== undefined && args.json !== '-') {
      await writeFile(resolve(io.cwd, args.json), json);
      written.push(`json: ${args.json}`);
    }
    if (args.html !== undefined) {
      await writeFile(resolve(io.cwd, args.html), renderReportHtml(report));
      written.push(`html: ${args.html}`);
    }
  } catch (error) {
    await io.stderr(`toolwarden report: cannot write the report: ${describeThrown(error)}\n`);
    return 2;
  }
  if (written.length > 0) await io.stderr(`toolwarden report: wrote ${written.join(', ')}\n`);
  const results = evaluateFailOn(report, args.failOn);
  for (const result of results) {
    const value = result.value === null ? 'no figure (no finished run)' : String(result.value);
    await io.stderr(`fail-on ${result.condition.text}: ${value}: ${result.met ? 'MET' : 'not met'}\n`);
  }
  return results.some((result) => result.met) ? 1 : 0;
}

function parseReportArgs(args: readonly string[]): ReportArgs {
  const usageError = (message: string): ReportArgs => ({ kind: 'usage-error', message });
  let values: { json?: string; html?: string; 'fail-on'?: string[]; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'string' },
        html: { type: 'string' },
        'fail-on': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return usageError(argumentErrorMessage(error));
  }
  if (values.help === true) return { kind: 'help' };
  if (positionals.length === 0) return usageError('missing the audit log to read');
  if (positionals.length > 1) {
    return usageError(`expected one audit log, got ${positionals.length}: ${positionals.join(' ')}`);
  }
  if (values.html === '-') return usageError('--html needs a file name (the page is not printed)');
  let failOn: FailOnCondition[];
  try {
    failOn = parseFailOn(values['fail-on'] ?? []);
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  return { kind: 'run', path: positionals[0] as string, json: values.json, html: values.html, failOn };
}
