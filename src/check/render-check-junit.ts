import type { CheckFinding, CheckReport, ToolCheck } from './check-report.js';
import { escapeXml } from './escape-xml.js';

/**
 * The report as JUnit XML, the format CI systems (GitHub Actions reporters, GitLab, Jenkins, Azure)
 * read: one `<testsuite>` for the module, one `<testcase>` per tool. A failed tool has one `<failure>`
 * whose `type` is the first error's code and whose text lists every error; warnings go to
 * `<system-out>`. Module-level problems are a testcase named `(module)`. An example whose `execute` was
 * not run is a testcase of its own (`tool [example label]`) with `<skipped>` and the reason.
 */
export function renderCheckJunit(report: CheckReport): string {
  const cases: string[] = [];
  if (report.moduleFindings.length > 0) {
    cases.push(testcase(report.module, '(module)', report.moduleFindings));
  }
  for (const tool of report.tools) {
    cases.push(testcase(report.module, caseName(tool), tool.findings));
    for (const label of tool.skippedExamples) {
      cases.push(
        `${open(report.module, `${caseName(tool)} [example ${label}]`)}><skipped message="${escapeXml(
          tool.skipReason ?? 'not run',
        )}"/></testcase>`,
      );
    }
  }
  const tests = cases.length;
  const failures =
    report.summary.failed + (report.moduleFindings.some((f) => f.severity === 'error') ? 1 : 0);
  const counts = `tests="${tests}" failures="${failures}" errors="0" skipped="${report.summary.examplesSkipped}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="toolwarden check" ${counts}>`,
    `  <testsuite name="${escapeXml(report.module)}" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function testcase(module: string, name: string, findings: readonly CheckFinding[]): string {
  const errors = findings.filter((f) => f.severity === 'error');
  const warnings = findings.filter((f) => f.severity === 'warning');
  const start = open(module, name);
  if (errors.length === 0 && warnings.length === 0) return `${start}/>`;
  const body: string[] = [];
  const first = errors[0];
  if (first !== undefined) {
    body.push(
      `      <failure type="${escapeXml(first.code)}" message="${escapeXml(describe(first))}">${escapeXml(
        errors.map(describe).join('\n'),
      )}</failure>`,
    );
  }
  if (warnings.length > 0) {
    body.push(`      <system-out>${escapeXml(warnings.map(describe).join('\n'))}</system-out>`);
  }
  return [`${start}>`, ...body, '    </testcase>'].join('\n');
}

/** A testcase's opening tag, unclosed. */
function open(module: string, name: string): string {
  return `    <testcase classname="${escapeXml(`toolwarden.check.${module}`)}" name="${escapeXml(name)}"`;
}

function caseName(tool: ToolCheck): string {
  return tool.exportName === undefined || tool.exportName === tool.name
    ? tool.name
    : `${tool.name} (export ${tool.exportName})`;
}

function describe(finding: CheckFinding): string {
  const example = finding.example === undefined ? '' : ` [example ${finding.example}]`;
  return `${finding.severity} ${finding.code}${example}: ${finding.message}`;
}
