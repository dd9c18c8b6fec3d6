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
const optional = (value: number | null): Cell => (value === null ? text('—') : num(value));

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

/** Limit hits, approvals and error codes: small tables side by side. */
export function limitsAndApprovalsTables(report: AuditReport): string {
  const { approvals } = report;
  return (
    '<div class="tables">' +
    countTable('limit-hits', 'Calls refused by a call limit', 'limit hits', report.limitHits) +
    table(
      'approvals',
      'Approvals and replays',
      ['decision', 'calls'],
      [
        [text('approved on resume'), num(approvals.approved)],
        [text('refused on resume'), num(approvals.refused)],
        [text('denied by a hook or authorize'), num(approvals.denied)],
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
    'replays',
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
    num(tool.replays),
    num(tool.latencyMs.p50),
    num(tool.latencyMs.p95),
    num(tool.latencyMs.p99),
    num(tool.latencyMs.max),
  ]);
  return `<div class="wide">${table('tools', 'Tools', headers, rows)}</div>`;
}

/** The headline figures: the ceiling to set, and the rates to watch. */
export function summaryTable(report: AuditReport): string {
  const { rounds } = report;
  const configured = rounds.configuredCeilings.map(
    (entry) => `${formatNumber(entry.maxRoundTrips)} (${formatNumber(entry.runs)} runs)`,
  );
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
      [text('recommended ceiling (P95 + 2)'), optional(rounds.recommendedCeiling)],
      [text('configured ceiling'), text(configured.length === 0 ? 'not recorded' : configured.join(', '))],
      [text('runs that reached their ceiling'), num(rounds.atCeiling)],
      [text('repeated-fingerprint hit rate'), rate(report.repeats.rate)],
      [text('stop rate'), rate(report.stops.rate)],
      [text('error rate'), rate(report.errors.rate)],
      [
        text('tokens in / out / total'),
        text(
          [report.usage.inputTokens, report.usage.outputTokens, report.usage.totalTokens]
            .map(formatNumber)
            .join(' / '),
        ),
      ],
    ],
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
