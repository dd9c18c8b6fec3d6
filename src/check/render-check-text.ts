import { type CheckFinding, type CheckReport, type CheckStatus, statusOf } from './check-report.js';

const LABEL: Record<CheckStatus, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL' };

/**
 * The report for people: a title, one line per tool (`PASS`, `WARN` or `FAIL`, its name, where it was
 * exported, its examples run and skipped), the findings of every tool that did not pass and the reason
 * its examples were skipped indented below it, and a summary line.
 * Control characters in names and messages are shown escaped, so a hostile tool cannot forge lines.
 */
export function renderCheckText(report: CheckReport): string {
  const lines = [`toolwarden check ${oneLine(report.module)}`, ''];
  if (report.moduleFindings.length > 0) {
    lines.push(`${LABEL[statusOf(report.moduleFindings)]}  (module)`);
    for (const finding of report.moduleFindings) lines.push(detail(finding));
  }
  for (const tool of report.tools) {
    const where =
      tool.exportName === undefined || tool.exportName === tool.name ? '' : `  (export ${tool.exportName})`;
    const skipped = tool.skippedExamples.length;
    const examples =
      skipped === 0
        ? examplesText(tool.examplesRun)
        : `${tool.examplesRun === 0 ? '' : `${examplesText(tool.examplesRun)} run, `}${examplesText(skipped)} skipped`;
    lines.push(`${LABEL[tool.status]}  ${oneLine(tool.name)}${where}  ${examples}`);
    for (const finding of tool.findings) lines.push(detail(finding));
    if (skipped > 0) {
      lines.push(
        `      ${'skipped'.padEnd(7)} ${tool.skippedExamples.map(oneLine).join(', ')}: ${oneLine(tool.skipReason ?? 'not run')} (input and expected output checked against the schemas only)`,
      );
    }
  }
  const { tools, passed, warned, failed, examplesSkipped } = report.summary;
  lines.push(
    '',
    `${tools} ${tools === 1 ? 'tool' : 'tools'}: ${passed} passed, ${warned} with warnings, ${failed} failed${
      report.moduleFindings.some((f) => f.severity === 'error') ? ' (and the module failed)' : ''
    }${examplesSkipped === 0 ? '' : `; ${examplesText(examplesSkipped)} skipped (not read tools: --run-writes runs them)`}`,
  );
  return `${lines.join('\n')}\n`;
}

function examplesText(count: number): string {
  return count === 1 ? '1 example' : `${count} examples`;
}

function detail(finding: CheckFinding): string {
  const example = finding.example === undefined ? '' : ` [example ${oneLine(finding.example)}]`;
  return `      ${finding.severity.padEnd(7)} ${finding.code}${example}: ${oneLine(finding.message)}`;
}

/** Escapes line breaks and other control characters (C0, DEL, C1, line/paragraph separators, bidi controls). */
function oneLine(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them.
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) =>
      c === '\n'
        ? '\\n'
        : c === '\r'
          ? '\\r'
          : c === '\t'
            ? '\\t'
            : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
