export { AuditLogError, type AuditLogErrorOptions, type AuditLogProblem } from './audit-log-error.js';
export {
  type ApprovalsReport,
  type AuditReport,
  type ErrorsReport,
  type LatencyPercentiles,
  REPORT_SCHEMA_VERSION,
  type RepeatsReport,
  type ReportRecords,
  type RoundsReport,
  type StopsReport,
  type ToolCount,
  type ToolReport,
} from './audit-report.js';
export {
  evaluateFailOn,
  FAIL_ON_METRICS,
  type FailOnCondition,
  type FailOnMetric,
  type FailOnOperator,
  type FailOnResult,
  parseFailOn,
} from './fail-on.js';
export { renderReportHtml } from './render-report-html.js';
export { renderReportText } from './render-report-text.js';
export { reportAuditLog } from './report-audit-log.js';
