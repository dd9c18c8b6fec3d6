import { readFile, rm, stat } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../../../src/cli/__fixtures__/run-captured.js';
import { scenariosOf } from '../loop-scenarios.js';
import { runScenariosCommand } from '../run-scenarios-command.js';
import { type ReportDemo, runReportDemo } from './run-report-demo.js';

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('npm run scenarios -- --report', () => {
  it('audits every scenario of the v2 corpus and reports each one as it ended', async () => {
    const loopScenarios = scenariosOf('v2');
    const demo: ReportDemo = await runReportDemo();
    folders.push(demo.folder);
    const { report } = demo;
    // Each scenario's last request ends as the scenario expects; the stops are those.
    const expected = new Map<string, number>();
    for (const scenario of loopScenarios) {
      if (scenario.expected !== 'completed')
        expected.set(scenario.expected, (expected.get(scenario.expected) ?? 0) + 1);
    }
    expect(new Map(report.stops.byReason.map((row) => [row.reason, row.runs]))).toEqual(expected);
    expect(report.rounds.runs).toBeGreaterThanOrEqual(loopScenarios.length);
    expect(report.records.runs).toBe(report.rounds.runs + report.rounds.interrupted);
    expect(report.records.skipped).toBe(0);
    const lines = (await readFile(demo.auditLog, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(report.records.calls + report.records.runs);
    // The corpus's loops repeat themselves: the hit rate is not 0, and the polling tool leads the list.
    expect(report.repeats.rate).toBeGreaterThan(0);
    expect(report.top.byRepeats[0]?.tool).toBe('getJobStatus');
    expect(report.repeats.overTime.length).toBeGreaterThan(1);
    expect(JSON.parse(await readFile(demo.json, 'utf8'))).toEqual(report);
    expect((await stat(demo.html)).size).toBeGreaterThan(1000);
  });

  it('prints the report and where the log, the page and the JSON are', async () => {
    const { stdout, code } = await runCaptured((io) => runScenariosCommand(['--report'], io));
    expect(code).toBe(0);
    const page = /^page: (.+)$/m.exec(stdout)?.[1];
    const log = /^audit log: (.+)$/m.exec(stdout)?.[1];
    expect(page).toBeDefined();
    if (page !== undefined) folders.push(page.replace(/\/report\.html$/, ''));
    expect(stdout).toMatch(/recommended ceiling \(P95 \+ 2, from \d+ finished runs\): maxRoundTrips \d+/);
    expect((await stat(page ?? '')).isFile()).toBe(true);
    expect((await stat(log ?? '')).isFile()).toBe(true);
  });
});
