import type { AuditReport, ToolCount } from './audit-report.js';
import { escapeHtml, truncateText } from './html-escape.js';
import { formatNumber, formatRate } from './svg-parts.js';

/** Characters of a tool name a table cell shows; the full name is the cell's tooltip (`title`). */
const TOOL_NAME_CHARS = 60;

/** A cell: its HTML (already escaped) and whether it is a figure (right-aligned). */
type Cell = { readonly html: string; readonly numeric: boolean };

const text = (value: string): Cell => ({ html: escapeHtml(value), numeric: false });
const num = (value: number): Cell => ({ html: escapeHtml(formatNumber(value)), numeric: true });
const rate = (value: number): Cell => ({ html: escapeHtml(formatRate(value)), numeric: true });
/** A figure that may not exist (a tool none of whose calls ran has no latency): a dash in its column. */
const optional = (value: number | null): Cell => (value === null ? { html: '—', numeric: true } : num(value));

/** A tool name, cut to fit its cell; the full name stays in the tooltip and in the embedded JSON. */
export function toolName(name: string): Cell {
  const shown = truncateText(name, TOOL_NAME_CHARS);
  const title = shown === name ? '' : ` title="${escapeHtml(name)}"`;
  return { html: `<span class="tool"${title}>${escapeHtml(shown)}</span>`, numeric: false };
}

function table(
  id: string,
  caption: string,
  headers: readonly string[],
  rows: readonly (readonly Cell[])[],
): string {
  const head = headers
    .map((header, index) => `<th${index > 0 ? ' class="num"' : ''}>${escapeHtml(header)}</th>`)
    .join('');
  const body =
    rows.length === 0
      ? `<tr><td colspan="${headers.length}" class="none">None.</td></tr>`
      : rows
          .map(
            (row) =>
              `<tr>${row.map((cell) => `<td${cell.numeric ? ' class="num"' : ''}>${cell.html}</td>`).join('')}</tr>`,
          )
          .join('');
  return `<table data-table="${id}"><caption>${escapeHtml(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function countTable(id: string, caption: string, header: string, counts: readonly ToolCount[]): string {
  return table(
    id,
    caption,
    ['tool', header],
    counts.map((entry) => [toolName(entry.tool), num(entry.count)]),
  );
}

/** The lists for the quarterly review, side by side. */
export function topTables(report: AuditReport): string {
  const { top } = report;
  return (
    '<div class="tables">' +
    countTable('top-repeats', 'Top tools by repeats', 'repeats', top.byRepeats) +
    countTable(
      'top-contract-violations',
      'Top tools by contract violations',
      'violations',
      top.byContractViolations,
    ) +
    countTable('top-errors', 'Top tools by errors', 'errors', top.byErrors) +
    '</div>'
  );
}

/** Limit hits, loop refusals, approvals and error codes: small tables side by side. */
export function limitsAndApprovalsTables(report: AuditReport): string {
  const { approvals } = report;
  return (
    '<div class="tables">' +
    countTable('limit-hits', 'Calls refused by a call limit', 'limit hits', report.limitHits) +
    countTable(
      'loop-refusals',
      'Calls refused by the loop guard (LOOP_DETECTED)',
      'refusals',
      report.loopRefusals,
    ) +
    table(
      'approvals',
      'Approvals and replays',
      ['decision', 'calls'],
      [
        [text('approved by a person (on resume, or asked by the MCP proxy)'), num(approvals.approved)],
        [text('refused by a person'), num(approvals.refused)],
        [text('ran unconfirmed (allow-and-audit)'), num(approvals.unconfirmed)],
        [text("denied by policy (a decide hook, the proxy's deny list)"), num(approvals.denied)],
        [text('idempotent replays'), num(approvals.replays)],
      ],
    ) +
    table(
      'error-codes',
      'Failed calls by code',
      ['code', 'calls'],
      report.errors.byCode.map((entry) => [text(entry.code), num(entry.calls)]),
    ) +
    '</div>'
  );
}

/** Every tool, most calls first. */
export function toolTable(report: AuditReport): string {
  const headers = [
    'tool',
    'calls',
    'errors',
    'repeats',
    'contract violations',
    'limit hits',
    'loop refusals',
    'replays',
    'ran',
    'P50 ms',
    'P95 ms',
    'P99 ms',
    'max ms',
  ];
  const rows = report.tools.map((tool) => [
    toolName(tool.tool),
    num(tool.calls),
    num(tool.errors),
    num(tool.repeats),
    num(tool.contractViolations),
    num(tool.limitHits),
    num(tool.loopRefusals),
    num(tool.replays),
    num(tool.ran),
    optional(tool.latencyMs.p50),
    optional(tool.latencyMs.p95),
    optional(tool.latencyMs.p99),
    optional(tool.latencyMs.max),
  ]);
  return `<div class="wide">${table('tools', 'Tools', headers, rows)}</div>`;
}

/** The headline figures: the ceiling to set, and the rates to watch. */
export function summaryTable(report: AuditReport): string {
  const calls: Cell[][] = [
    [text('repeated-fingerprint hit rate'), rate(report.repeats.rate)],
    [text('error rate'), rate(report.errors.rate)],
  ];
  if (report.records.runs === 0) {
    // A log of calls only: no run figure exists, and a 0 would read as one.
    return table(
      'summary',
      'Summary',
      ['figure', 'value'],
      [[text('runs'), text('none: calls only')], ...calls],
    );
  }
  const { rounds } = report;
  const configured = rounds.configuredCeilings.map(
    (entry) => `${formatNumber(entry.maxRoundTrips)} (${formatNumber(entry.runs)} runs)`,
  );
  const finished = rounds.runs > 0;
  return table(
    'summary',
    'Summary',
    ['figure', 'value'],
    [
      [text('finished runs'), num(rounds.runs)],
      [text('run parts paused for an approval'), num(rounds.interrupted)],
      [
        text('rounds per run P50 / P95 / P99 / max'),
        text(
          [rounds.p50, rounds.p95, rounds.p99, rounds.max]
            .map((v) => (v === null ? '—' : formatNumber(v)))
            .join(' / '),
        ),
      ],
      [text('recommended ceiling (P95 + 2)'), ceilingCell(report)],
      [text('configured ceiling'), text(configured.length === 0 ? 'not recorded' : configured.join(', '))],
      [text('runs that reached their ceiling'), num(rounds.atCeiling)],
      [text('stop rate'), finished ? rate(report.stops.rate) : text('n/a (no finished run)')],
      ...calls,
      [
        text('tokens in / out / total'),
        finished
          ? text(
              [report.usage.inputTokens, report.usage.outputTokens, report.usage.totalTokens]
                .map(formatNumber)
                .join(' / '),
            )
          : text('n/a (no finished run)'),
      ],
    ],
  );
}

/** The ceiling and the runs it rests on, or why there is none. */
function ceilingCell({ rounds }: AuditReport): Cell {
  if (rounds.recommendedCeiling !== null) {
    return text(
      `${formatNumber(rounds.recommendedCeiling)} (from ${formatNumber(rounds.runs)} finished runs)`,
    );
  }
  if (rounds.runs === 0) return text('n/a (no finished run)');
  return text(
    `withheld: ${formatNumber(rounds.runs)} finished runs, at least ${formatNumber(rounds.minRunsForCeiling)} needed`,
  );
}

/** What was read: records, skipped lines, the time span. */
export function recordsTable(report: AuditReport): string {
  const { records } = report;
  const firstSkipped = records.firstSkipped.length === 0 ? '—' : records.firstSkipped.map(String).join(', ');
  return table(
    'records',
    'Records read',
    ['figure', 'value'],
    [
      [text('audit log'), text(report.source)],
      [text('call records'), num(records.calls)],
      [text('run records'), num(records.runs)],
      [text('skipped lines (not a known audit record)'), num(records.skipped)],
      [text('first skipped lines'), text(firstSkipped)],
      [text('earliest record'), text(records.from ?? '—')],
      [text('latest record'), text(records.to ?? '—')],
    ],
  );
}
