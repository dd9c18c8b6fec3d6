import type { AuditReport } from './audit-report.js';
import { escapeHtml, jsonForScript } from './html-escape.js';
import { renderCharts } from './report-charts.js';
import { NO_RUN_RECORDS } from './report-figures.js';
import {
  limitsAndApprovalsTables,
  recordsTable,
  summaryTable,
  toolTable,
  topTables,
} from './report-tables.js';

/**
 * No script, no request: the page is opened from a folder or an email, so it must not fetch or run
 * anything. The embedded JSON is data (`application/json` is never executed).
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * The report as one self-contained HTML page: charts as inline SVG, tables, and the report's JSON
 * embedded (`#toolwarden-report`), so the page and `--json` can never disagree. Every text is escaped:
 * tool names are the model's text.
 */
export function renderReportHtml(report: AuditReport): string {
  const title = `toolwarden report: ${report.source}`;
  const empty = report.records.calls === 0 && report.records.runs === 0;
  const body = empty
    ? `<p class="empty" data-empty-report>The audit log has no runs and no calls: there is nothing to report yet.</p>${recordsTable(report)}`
    : [
        summaryTable(report),
        noRunRecords(report),
        `<section class="charts">${renderCharts(report)}</section>`,
        '<h2>Tools to review</h2>',
        topTables(report),
        '<h2>Limits, approvals and errors</h2>',
        limitsAndApprovalsTables(report),
        '<h2>Tools</h2>',
        toolTable(report),
        '<h2>Records</h2>',
        recordsTable(report),
      ].join('\n');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<main><h1>${escapeHtml(title)}</h1>`,
    span(report),
    body,
    '</main>',
    `<script type="application/json" id="toolwarden-report">${jsonForScript(report)}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A log of calls only: one sentence instead of empty run figures. */
function noRunRecords(report: AuditReport): string {
  if (report.records.runs > 0) return '';
  const why = `${NO_RUN_RECORDS.charAt(0).toUpperCase()}${NO_RUN_RECORDS.slice(1)}`;
  return `<p class="empty" data-no-runs>${escapeHtml(`${why}: there are no rounds per run, no recommended ceiling, no stops and no tokens to show.`)}</p>`;
}

function span(report: AuditReport): string {
  const { from, to } = report.records;
  if (from === undefined || to === undefined) return '';
  return `<p class="span">Records from ${escapeHtml(from)} to ${escapeHtml(to)} (UTC).</p>`;
}

/** Plain CSS, system fonts only (a web font would be a request). */
const STYLE = `
body { margin: 0; background: #f6f7f9; color: #1d2330; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 17px; margin: 28px 0 10px; }
.span { color: #5b6472; margin: 0 0 16px; }
.empty { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: 16px; color: #5b6472; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 16px; margin-top: 16px; }
figure { margin: 0; background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: 12px; min-width: 0; }
figcaption { font-weight: 600; margin-bottom: 8px; }
svg { display: block; max-width: 100%; height: auto; font-size: 12px; }
svg .grid { stroke: #e6e9ee; stroke-width: 1; }
svg .axis { stroke: #8a93a0; stroke-width: 1; }
svg .tick { fill: #5b6472; font-size: 11px; }
svg .bar-value { fill: #5b6472; font-size: 10px; }
svg .axis-title { fill: #3b4350; font-size: 12px; }
svg .row-label { fill: #1d2330; font-size: 12px; }
svg .legend { fill: #3b4350; font-size: 12px; }
svg .marker-label { font-size: 12px; font-weight: 600; }
svg .line { fill: none; stroke: #4c78a8; stroke-width: 2; }
svg circle.mark { fill: #fff; stroke: #4c78a8; stroke-width: 2; }
.tables { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.wide { overflow-x: auto; }
table { border-collapse: collapse; background: #fff; border: 1px solid #dde1e7; margin-top: 8px; }
caption { text-align: left; font-weight: 600; padding: 0 0 6px; }
th, td { padding: 5px 10px; border-bottom: 1px solid #eceff3; text-align: left; vertical-align: top; }
th { background: #f0f2f5; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.none { color: #8a93a0; }
.tool { display: inline-block; max-width: 32em; overflow-wrap: anywhere; font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 13px; }
`;
