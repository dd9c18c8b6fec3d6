import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_GUARD_GAPS } from './__fixtures__/known-guard-gaps.js';
import { formatScenarioTable, SCENARIO_TABLE_HEADER } from './format-scenario-table.js';
import { loopScenarios } from './loop-scenarios.js';
import { loopScenariosReport } from './loop-scenarios-report.js';
import { INVOICE_PAGES } from './pagination-scenarios.js';
import { runLoopScenarios, type ScenarioRow, STEP_CAP_POLICIES } from './run-loop-scenarios.js';

const ofKind = (kind: string) => loopScenarios.filter((scenario) => scenario.kind === kind);
const gap = (name: string) => Object.hasOwn(KNOWN_GUARD_GAPS, name);

let rows: ScenarioRow[];
beforeAll(async () => {
  rows = await runLoopScenarios();
}, 60_000);

describe('the table', () => {
  let table: string;
  let lines: string[];
  beforeAll(() => {
    table = formatScenarioTable(rows);
    lines = table.split('\n');
  });
  const cellsOf = (line: string | undefined) =>
    (line ?? '')
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  const rowOf = (name: string) => cellsOf(lines.find((line) => cellsOf(line)[2] === name));

  it('has the header, a rule, and one row per scenario in order, each with every column', () => {
    expect(cellsOf(lines[0])).toEqual([...SCENARIO_TABLE_HEADER]);
    expect(lines[1]).toMatch(/^\| -+ (\| -+ )+\|$/);
    const body = lines.slice(2, 2 + loopScenarios.length).map(cellsOf);
    expect(body.map((cells) => [Number(cells[0]), cells[1], cells[2]])).toEqual(
      loopScenarios.map((scenario) => [scenario.id, scenario.family, scenario.name]),
    );
    for (const cells of body) expect(cells).toHaveLength(SCENARIO_TABLE_HEADER.length);
    expect(lines[2 + loopScenarios.length]).toBe('');
  });

  it('shows the key figures of a loop and of long legitimate work', () => {
    expect(rowOf('contract-mismatch loop').slice(3)).toEqual([
      'loop',
      'stopped',
      'LOOP_DETECTED: exact-repeat',
      '3',
      '2 (by 5)',
      '2',
      'MAX_ROUND_TRIPS at 10, 9 wasted',
      'MAX_ROUND_TRIPS at 20, 19 wasted',
      'MAX_ROUND_TRIPS at 25, 24 wasted',
      'yes',
    ]);
    expect(rowOf(`${INVOICE_PAGES}-page pagination`).slice(3)).toEqual([
      'legitimate',
      'completed',
      '-',
      String(INVOICE_PAGES + 1),
      '-',
      '0',
      'MAX_ROUND_TRIPS at 10',
      'MAX_ROUND_TRIPS at 20',
      'MAX_ROUND_TRIPS at 25',
      'yes',
    ]);
    expect(rowOf('a period-3 cycle over three tools').slice(5, 9)).toEqual([
      'LOOP_DETECTED: cycle',
      '6',
      '4 (by 8)',
      '3',
    ]);
    expect(rowOf('distinct useless calls').slice(4, 7)).toEqual(['stopped', 'MAX_ROUND_TRIPS', '50']);
  });

  it('totals every policy: legitimate completed, loops stopped, bounded ended, rounds, wasted rounds', () => {
    const legitimate = ofKind('legitimate').length;
    const loops = ofKind('loop').length;
    // A legitimate gap counts against "completed" only when the gap is that it was stopped.
    const legitGaps = ofKind('legitimate').filter((s) =>
      KNOWN_GUARD_GAPS[s.name]?.some((problem) => problem.startsWith('expected completed')),
    ).length;
    const loopGaps = ofKind('loop').filter((s) => gap(s.name)).length;
    const sum = (pick: (row: ScenarioRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
    expect(lines).toContain(
      `guarded (toolwarden defaults): legitimate completed ${legitimate - legitGaps}/${legitimate}, ` +
        `loops stopped in time ${loops - loopGaps}/${loops}, bounded ended 2/2, ` +
        `rounds ${sum((row) => row.guarded.roundTrips)}, wasted rounds ${sum((row) => row.guarded.wastedRoundTrips)}`,
    );
    STEP_CAP_POLICIES.forEach((policy, index) => {
      const line = lines.find((candidate) => candidate.startsWith(`${policy.name}, guard off: `));
      expect(line).toContain(`wasted rounds ${sum((row) => row.stepCaps[index]?.wastedRoundTrips ?? 0)}`);
      expect(line).toMatch(
        /legitimate completed \d+\/\d+, loops stopped \d+\/\d+, bounded ended 2\/2, rounds \d+/,
      );
    });
    expect(lines.find((line) => line.startsWith('cap 10'))).toContain('bounded ended 2/2');
  });

  it('lists the scenarios that did not end as expected, with their problems, and says so when none', () => {
    expect(table).toContain('every scenario ended as expected.');
    expect(table).not.toMatch(/\| NO +\|/);
    const [first, ...others] = rows;
    if (first === undefined) throw new Error('no rows');
    const broken = [
      { ...first, guarded: { ...first.guarded, problems: ['expected completed, got stopped'] } },
      ...others,
    ];
    const brokenLines = formatScenarioTable(broken).split('\n');
    expect(brokenLines).toContain('not as expected:');
    expect(brokenLines.filter((line) => /^ {2}\d+ /.test(line))).toEqual([
      `  1 ${first.scenario.name}: expected completed, got stopped`,
    ]);
  });

  it('is what `npm run scenarios` prints, which says whether every scenario ended as expected', async () => {
    const report = await loopScenariosReport();
    expect(report.table).toBe(table);
    expect(report.allCorrect).toBe(Object.keys(KNOWN_GUARD_GAPS).length === 0);
  });

  it('is shown in docs/loop-and-guard.md as printed (regenerate it: npm run scenarios)', () => {
    const readme = readFileSync(new URL('../../docs/loop-and-guard.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### The loop scenarios'));
    const shown = /```text\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(shown).toBe(table);
  });
});
