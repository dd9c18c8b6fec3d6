import { printable } from '../util/printable.js';
import type { AuditReport, ToolCount, ToolReport } from './audit-report.js';
import { NO_RUN_RECORDS } from './report-figures.js';

const BAR_WIDTH = 40;
const TOOL_ROWS = 20;
const OVER_TIME_SHOWN = 12;

/** The report as the terminal shows it: the playbook's figures first, then the lists to review. */
export function renderReportText(report: AuditReport): string {
  if (report.records.calls === 0 && report.records.runs === 0) {
    return `${header(report)}

The audit log has no records: there is nothing to report yet.
`;
  }
  return [
    header(report),
    rounds(report),
    repeats(report),
    stops(report),
    top(report),
    tools(report.tools),
    errors(report),
    approvals(report),
    proxyScreen(report),
  ]
    .filter((section) => section !== '')
    .join('\n\n')
    .concat('\n');
}

function header({ source, records }: AuditReport): string {
  const span = records.from === undefined ? '' : `\n  from ${records.from} to ${records.to ?? records.from}`;
  const skipped =
    records.skipped === 0
      ? '0 skipped'
      : `${n(records.skipped)} skipped (not a record of a known schema version: line ${records.firstSkipped.join(', ')}${records.skipped > records.firstSkipped.length ? ', ...' : ''})`;
  return `toolwarden report: ${source}\n  ${n(records.calls)} call records, ${n(records.runs)} run records, ${skipped}${span}`;
}

function rounds({ rounds, records }: AuditReport): string {
  if (records.runs === 0) {
    return `Rounds per run: ${NO_RUN_RECORDS}, so there are no rounds, no recommended ceiling, no stops and no tokens to report`;
  }
  if (rounds.runs === 0) {
    return `Rounds per run: no finished run${rounds.interrupted > 0 ? ` (${n(rounds.interrupted)} paused for approval)` : ''}, so no recommended ceiling`;
  }
  const most = Math.max(...rounds.histogram.map((bar) => bar.runs));
  const width = String(rounds.max ?? 0).length;
  const bars = rounds.histogram.map(
    (bar) =>
      `  ${String(bar.rounds).padStart(width)} | ${'█'.repeat(Math.max(1, Math.round((bar.runs / most) * BAR_WIDTH)))} ${n(bar.runs)}`,
  );
  const configured =
    rounds.configuredCeilings.length === 0
      ? 'not in the records'
      : rounds.configuredCeilings
          .map((row) => `${row.maxRoundTrips} (${plural(row.runs, 'run')})`)
          .join(', ');
  const ceiling =
    rounds.recommendedCeiling === null
      ? `recommended ceiling: withheld: ${plural(rounds.runs, 'finished run')}, at least ${n(rounds.minRunsForCeiling)} are needed for a P95 to rest on`
      : `recommended ceiling (P95 + 2, from ${plural(rounds.runs, 'finished run')}): maxRoundTrips ${rounds.recommendedCeiling}`;
  return [
    `Rounds per run: ${plural(rounds.runs, 'finished run')}${rounds.interrupted > 0 ? `, ${n(rounds.interrupted)} paused for approval` : ''}`,
    `  P50 ${rounds.p50} · P95 ${rounds.p95} · P99 ${rounds.p99} · max ${rounds.max}`,
    `  ${ceiling}`,
    `  configured: ${configured} · runs at their ceiling: ${n(rounds.atCeiling)}`,
    ...bars,
  ].join('\n');
}

function repeats({ repeats }: AuditReport): string {
  const lines = [
    `Repeated-fingerprint hit rate: ${percent(repeats.rate)} (${n(repeats.repeated)} of ${n(repeats.calls)} calls repeat an earlier call of their run)`,
    '  when it rises, fix the tool\u2019s description or its result; do not raise the ceiling',
  ];
  if (repeats.overTime.length > 1) {
    const shown = repeats.overTime.slice(-OVER_TIME_SHOWN);
    const label =
      shown.length < repeats.overTime.length
        ? `the last ${shown.length} of ${repeats.overTime.length} ${repeats.granularity}s`
        : `by ${repeats.granularity}`;
    lines.push(
      `  ${label}: ${shown.map((period) => `${period.period} ${percent(period.rate)}`).join(' · ')}`,
    );
  }
  return lines.join('\n');
}

function stops({ stops, limitHits, loopRefusals, rounds, records }: AuditReport): string {
  const rate =
    records.runs === 0
      ? 'n/a (no run records)'
      : rounds.runs === 0
        ? 'n/a (no finished run)'
        : `${percent(stops.rate)} of finished runs`;
  const lines = [`Stops: ${rate}`];
  if (stops.byReason.length > 0) {
    lines.push(`  ${stops.byReason.map((row) => `${row.reason} ${n(row.runs)}`).join(' · ')}`);
  }
  if (limitHits.length > 0) lines.push(`  calls refused by a call limit: ${counts(limitHits)}`);
  if (loopRefusals.length > 0) {
    lines.push(`  calls refused by the loop guard (LOOP_DETECTED): ${counts(loopRefusals)}`);
  }
  return lines.join('\n');
}

function top({ top }: AuditReport): string {
  const lines = ['For the quarterly review: top tools'];
  lines.push(`  by repeats: ${counts(top.byRepeats)}`);
  lines.push(`  by contract violations: ${counts(top.byContractViolations)}`);
  lines.push(`  by errors: ${counts(top.byErrors)}`);
  return lines.join('\n');
}

function tools(rows: readonly ToolReport[]): string {
  if (rows.length === 0) return '';
  const head = [
    'tool',
    'calls',
    'errors',
    'repeats',
    'violations',
    'limit',
    'loop',
    'replays',
    'p50 ms',
    'p95 ms',
    'p99 ms',
  ];
  const body = rows
    .slice(0, TOOL_ROWS)
    .map((row) => [
      printable(row.tool),
      n(row.calls),
      n(row.errors),
      n(row.repeats),
      n(row.contractViolations),
      n(row.limitHits),
      n(row.loopRefusals),
      n(row.replays),
      ms(row.latencyMs.p50),
      ms(row.latencyMs.p95),
      ms(row.latencyMs.p99),
    ]);
  const widths = head.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `  ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')}`;
  const more =
    rows.length > TOOL_ROWS
      ? [`  ... and ${n(rows.length - TOOL_ROWS)} more tools (--json has them all)`]
      : [];
  return [
    'Tools (latency of the calls that ran, within 1%; a refused or replayed call has none)',
    line(head),
    ...body.map(line),
    ...more,
  ].join('\n');
}

function errors({ errors }: AuditReport): string {
  if (errors.byClass.length === 0) return 'Errors: none';
  return [
    `Errors: ${percent(errors.rate)} of calls`,
    `  by class: ${errors.byClass.map((row) => `${row.errorClass} ${n(row.calls)}`).join(' · ')}`,
    `  by code: ${errors.byCode.map((row) => `${row.code} ${n(row.calls)}`).join(' · ')}`,
  ].join('\n');
}

function approvals({ approvals, usage, rounds }: AuditReport): string {
  return [
    `Approvals: approved by a person ${n(approvals.approved)} · refused by a person ${n(approvals.refused)} · ran unconfirmed (allow-and-audit) ${n(approvals.unconfirmed)} · denied by policy ${n(approvals.denied)} · idempotent replays ${n(approvals.replays)}`,
    rounds.runs === 0
      ? 'Tokens: n/a (no finished run)'
      : `Tokens (finished runs): input ${n(usage.inputTokens)} · output ${n(usage.outputTokens)} · total ${n(usage.totalTokens)}`,
  ].join('\n');
}

function counts(rows: readonly ToolCount[]): string {
  return rows.length === 0 ? 'none' : rows.map((row) => `${printable(row.tool)} ${n(row.count)}`).join(' · ');
}

function plural(count: number, noun: string): string {
  return `${n(count)} ${noun}${count === 1 ? '' : 's'}`;
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}

function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

function ms(value: number | null): string {
  if (value === null) return '—';
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** The MCP proxy's screen, when it did anything: secrets, rate limits, changed tool definitions. */
function proxyScreen({ proxy }: AuditReport): string {
  const { secrets, rateLimited, toolChanges } = proxy;
  const lines: string[] = [];
  if (secrets.blocked + secrets.redacted + secrets.audited > 0) {
    const rules = secrets.byRule.map(({ rule, calls }) => `${printable(rule)} ${n(calls)}`).join(', ');
    lines.push(
      `  secrets found (MCP proxy): blocked ${n(secrets.blocked)} · redacted ${n(secrets.redacted)} · audited only ${n(secrets.audited)}; by rule: ${rules}`,
    );
  }
  if (rateLimited.length > 0) lines.push(`  calls over a rate limit (RATE_LIMITED): ${counts(rateLimited)}`);
  if (toolChanges.length > 0) {
    lines.push('  tool definitions changed since pinned (TOOL_DEFINITION_CHANGED), newest first:');
    for (const change of toolChanges)
      lines.push(
        `    ${change.at}  ${printable(change.server)}  ${printable(change.tool)}  ${change.outcome}  ${change.digest} (pinned ${change.pinnedDigest})`,
      );
  }
  return lines.length === 0 ? '' : ['MCP proxy: secrets, rate limits, pinned tools', ...lines].join('\n');
}
