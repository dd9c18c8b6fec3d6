import type { CheckReport } from './check-report.js';

/** Names this document's shape; raised when a field changes meaning or goes away. */
export const CHECK_REPORT_VERSION = 1;

/** The report as JSON for programs: `{ format, version, module, status, summary, moduleFindings, tools }`. */
export function renderCheckJson(report: CheckReport): string {
  return `${JSON.stringify({ format: 'toolwarden-check', version: CHECK_REPORT_VERSION, ...report }, null, 2)}\n`;
}
