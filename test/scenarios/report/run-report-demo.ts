import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditListener } from '../../../src/audit/audit-listener.js';
import { createJsonlAuditSink } from '../../../src/audit/jsonl-audit-sink.js';
import type { AuditReport } from '../../../src/report/audit-report.js';
import { renderReportHtml } from '../../../src/report/render-report-html.js';
import { reportAuditLog } from '../../../src/report/report-audit-log.js';
import { scenariosOf } from '../loop-scenarios.js';
import { GUARDED_POLICY, runScenario } from '../run-loop-scenarios.js';

/** The demo's clock: the scenarios' records are this far apart (the whole corpus spans about a day). */
export const DEMO_MINUTES_PER_SCENARIO = 20;

export interface ReportDemo {
  readonly folder: string;
  readonly auditLog: string;
  readonly html: string;
  readonly json: string;
  readonly report: AuditReport;
}

/**
 * For `npm run scenarios -- --report`: every scenario of the v2 corpus (the one the guard ends as each scenario
 * states) under toolwarden's defaults, with the JSONL audit sink on, then the report of that log, its page and
 * its JSON, in a new temp folder (or `folder`). The runs are real; only the records' times are spread out
 * (`DEMO_MINUTES_PER_SCENARIO`).
 */
export async function runReportDemo(folder?: string): Promise<ReportDemo> {
  const into = folder ?? (await mkdtemp(join(tmpdir(), 'toolwarden-report-')));
  await mkdir(into, { recursive: true });
  const auditLog = join(into, 'audit.jsonl');
  const failures: unknown[] = [];
  const sink = createJsonlAuditSink({ path: auditLog, onError: (failure) => failures.push(failure) });
  const start = Date.now();
  for (const [index, scenario] of scenariosOf('v2').entries()) {
    // One listener per scenario: it keeps the ids of the run it is in. Its records are dated as if one
    // scenario ran every DEMO_MINUTES_PER_SCENARIO minutes, so the page's over-time chart has points.
    const at = new Date(start + index * DEMO_MINUTES_PER_SCENARIO * 60_000);
    await runScenario(scenario, GUARDED_POLICY, auditListener(sink, { now: () => at }));
  }
  await sink.close();
  if (failures.length > 0)
    throw new Error(`the audit log could not be written: ${JSON.stringify(failures[0])}`);
  const report = await reportAuditLog(auditLog);
  const html = join(into, 'report.html');
  const json = join(into, 'report.json');
  await writeFile(html, renderReportHtml(report));
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  return { folder: into, auditLog, html, json, report };
}
