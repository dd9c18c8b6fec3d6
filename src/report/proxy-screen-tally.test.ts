// The report of the MCP proxy's screen, from audit lines as the proxy writes them: secrets by action and
// rule, rate-limited calls, changed tool definitions; hostile fields left out.
import { describe, expect, it } from 'vitest';
import { renderReportText } from './render-report-text.js';
import { ReportBuilder } from './report-builder.js';
import { parseReportInput } from './report-input.js';

const AT = '2026-12-05T12:00:00.000Z';
const digest = (hex: string) => `sha256:${hex.repeat(64)}`;
const call = (more: Record<string, unknown>) =>
  JSON.stringify({
    schemaVersion: 2,
    kind: 'call',
    at: AT,
    runId: 's',
    sessionId: 's',
    toolCallId: 'c',
    toolName: 'gh.echo',
    argumentsSummary: '{}',
    argumentsDigest: 'd',
    outcome: 'success',
    durationMs: 1,
    attempts: 1,
    retries: 0,
    replay: false,
    ...more,
  });
const change = (more: Record<string, unknown>) =>
  JSON.stringify({
    schemaVersion: 2,
    kind: 'tool-definition',
    at: AT,
    code: 'TOOL_DEFINITION_CHANGED',
    server: 'gh',
    toolName: 'gh.echo',
    outcome: 'refused',
    digest: digest('b'),
    pinnedDigest: digest('a'),
    ...more,
  });

function reportOf(lines: readonly string[]) {
  const builder = new ReportBuilder('audit.jsonl');
  lines.forEach((line, index) => {
    const input = parseReportInput(line);
    if (input === undefined) builder.countUnreadable(index + 1);
    else builder.add(input);
  });
  return builder.finish();
}

describe('the report of the MCP proxy screen', () => {
  it('counts secrets by action and rule, rate-limited calls by tool, and lists each definition change once, newest first', () => {
    const report = reportOf([
      call({
        outcome: 'denied',
        code: 'SECRET_DETECTED',
        secrets: [{ in: 'arguments', rules: ['key'], action: 'blocked' }],
      }),
      call({
        secrets: [
          { in: 'arguments', rules: ['jwt'], action: 'audited' },
          { in: 'result', rules: ['key', 'secret'], action: 'redacted' },
        ],
      }),
      call({ outcome: 'denied', code: 'RATE_LIMITED' }),
      call({ outcome: 'denied', code: 'RATE_LIMITED', toolName: 'fs.read' }),
      call({ outcome: 'denied', code: 'RATE_LIMITED' }),
      change({}),
      change({ at: '2026-12-05T12:05:00.000Z' }),
      change({ at: '2026-12-05T12:10:00.000Z', outcome: 'approved' }),
      change({ toolName: 'gh.create', outcome: 'flagged', digest: digest('c') }),
    ]);
    expect(report.proxy).toEqual({
      secrets: {
        blocked: 1,
        redacted: 1,
        audited: 1,
        byRule: [
          { rule: 'key', calls: 2 },
          { rule: 'jwt', calls: 1 },
          { rule: 'secret', calls: 1 },
        ],
      },
      rateLimited: [
        { tool: 'gh.echo', count: 2 },
        { tool: 'fs.read', count: 1 },
      ],
      toolChanges: [
        {
          at: '2026-12-05T12:10:00.000Z',
          server: 'gh',
          tool: 'gh.echo',
          outcome: 'approved',
          digest: digest('b'),
          pinnedDigest: digest('a'),
        },
        {
          at: AT,
          server: 'gh',
          tool: 'gh.create',
          outcome: 'flagged',
          digest: digest('c'),
          pinnedDigest: digest('a'),
        },
      ],
    });
    expect(report.records.skipped).toBe(0);
    const text = renderReportText(report);
    expect(text).toContain(
      'secrets found (MCP proxy): blocked 1 · redacted 1 · audited only 1; by rule: key 2, jwt 1, secret 1',
    );
    expect(text).toContain('calls over a rate limit (RATE_LIMITED): gh.echo 2 · fs.read 1');
    expect(text).toContain(`gh  gh.create  flagged  ${digest('c')} (pinned ${digest('a')})`);
  });

  it('skips a change record of the wrong shape, and leaves out secret findings it cannot read', () => {
    const report = reportOf([
      change({ digest: 'md5:1' }),
      change({ outcome: 'ignored' }),
      call({
        secrets: [
          { action: 'exfiltrated', rules: ['key'] },
          { action: 'blocked', rules: ['KEY <script>', 42] },
        ],
      }),
    ]);
    expect(report.records.skipped).toBe(2);
    expect(report.proxy.toolChanges).toEqual([]);
    expect(report.proxy.secrets).toEqual({ blocked: 1, redacted: 0, audited: 0, byRule: [] });
  });
});
