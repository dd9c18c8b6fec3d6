// toolwarden/report: reads an audit log (JSONL or SQLite) into a report, and renders it as text or HTML
// (what `toolwarden report` prints).
export { AuditLogError, type AuditLogErrorOptions, type AuditLogProblem } from './audit-log-error.js';
export {
  type ApprovalsReport,
  type AuditReport,
  type ErrorsReport,
  type LatencyPercentiles,
  type ProxyScreenReport,
  REPORT_SCHEMA_VERSION,
  type RepeatsReport,
  type ReportRecords,
  type RoundsReport,
  type StopsReport,
  type ToolCount,
  type ToolReport,
} from './audit-report.js';
export { renderReportHtml } from './render-report-html.js';
export { renderReportText } from './render-report-text.js';
export { reportAuditLog } from './report-audit-log.js';
