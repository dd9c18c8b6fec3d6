import type { AuditReport } from './audit-report.js';

// Placeholder until the page lands (helper branch report-html).
export function renderReportHtml(report: AuditReport): string {
  return `<!doctype html><title>toolwarden report</title><pre>${JSON.stringify(report).replace(/</g, '&lt;')}</pre>`;
}
