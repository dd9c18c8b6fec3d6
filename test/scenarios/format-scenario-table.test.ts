import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_GUARD_GAPS } from './__fixtures__/known-guard-gaps.js';
import { KNOWN_V3_FAILURES } from './__fixtures__/known-v3-failures.js';
import { CLASS_HEADER, NARROW_WIDTH, TOTALS_HEADER } from './format-scenario-summary.js';
import { formatScenarioTable, SCENARIO_TABLE_HEADER } from './format-scenario-table.js';
import { formatWideScenarioTable, WIDE_SCENARIO_TABLE_HEADER } from './format-wide-scenario-table.js';
import { GUARD_CLASS_NAMES } from './guard-class.js';
import { loopScenarios, scenariosOf } from './loop-scenarios.js';
import { loopScenariosReport } from './loop-scenarios-report.js';
import { INVOICE_PAGES } from './pagination-scenarios.js';
import { runLoopScenarios, type ScenarioRow, STEP_CAP_POLICIES } from './run-loop-scenarios.js';
import { scenarioTableJson } from './scenario-table-json.js';
import { scenarioTotals } from './scenario-totals.js';

const ofKind = (kind: string) => scenariosOf('v2').filter((scenario) => scenario.kind === kind);
const gap = (name: string) => Object.hasOwn(KNOWN_GUARD_GAPS, name);
const knownFailures = Object.keys(KNOWN_GUARD_GAPS).length + Object.keys(KNOWN_V3_FAILURES).length;

/** The cells of a pipe-table line, trimmed. */
const cellsOf = (line: string | undefined) =>
  (line ?? '')
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
const isRow = (line: string) => /^\| \d+ +\|/.test(line);

let rows: ScenarioRow[];
beforeAll(async () => {
  rows = await runLoopScenarios();
}, 60_000);

describe('the narrow table (the default form)', () => {
  let table: string;
  let lines: string[];
  beforeAll(() => {
    table = formatScenarioTable(rows);
    lines = table.split('\n');
  });
  /** The scenario table: the lines before the first blank one (the summary's tables follow). */
  const tableLines = () => lines.slice(0, lines.indexOf(''));
  const rowOf = (name: string) =>
    cellsOf(tableLines().find((line) => isRow(line) && cellsOf(line)[1] === name));

  it(`fits a ${NARROW_WIDTH}-column terminal, every line of it`, () => {
    const widest = Math.max(...lines.map((line) => line.length));
    expect(widest).toBeLessThanOrEqual(NARROW_WIDTH);
  });

  it('has the header, a rule, one row per scenario in order, and a line before each set and class', () => {
    expect(cellsOf(lines[0])).toEqual([...SCENARIO_TABLE_HEADER]);
    expect(lines[1]).toMatch(/^\| -+ (\| -+ )+\|$/);
    const body = tableLines().filter(isRow).map(cellsOf);
    expect(body.map((cells) => Number(cells[0]))).toEqual(loopScenarios.map((scenario) => scenario.id));
    for (const cells of body) expect(cells).toHaveLength(SCENARIO_TABLE_HEADER.length);
    const sections = tableLines()
      .slice(2)
      .filter((line) => !isRow(line));
    expect(sections).toHaveLength(1 + GUARD_CLASS_NAMES.length);
    expect(sections[0]).toBe('v2: the loop corpus of issue 9');
    expect(sections[1]).toBe(
      'v3 class 1, ack-new-state (legitimate work to complete): an identical write acknowledgement that opens new state',
    );
    expect(sections[5]).toMatch(/^v3 class 5, no-op-writes \(loops to stop\): /);
    // The line of class 5 comes right before its first scenario.
    const first = scenariosOf('v3').find((scenario) => scenario.guardClass === 'no-op-writes');
    expect(cellsOf(lines[lines.indexOf(sections[5] as string) + 1])[0]).toBe(String(first?.id));
  });

  it('names each scenario in full, but for a name too long for the terminal, which it cuts with …', () => {
    const names = tableLines()
      .filter(isRow)
      .map((line) => cellsOf(line)[1] as string);
    const width = (lines[1]?.split('|')[2]?.length ?? 0) - 2;
    loopScenarios.forEach((scenario, index) => {
      const shown = names[index] ?? '';
      if (scenario.name.length <= width) expect(shown).toBe(scenario.name);
      else expect(shown).toBe(`${scenario.name.slice(0, width - 1)}…`);
    });
  });

  it('shows the key figures of a loop, of long legitimate work, of a cycle and of a bound', () => {
    expect(rowOf('contract-mismatch loop')).toEqual([
      '1',
      'contract-mismatch loop',
      'loop',
      'exact-repeat',
      '3',
      '2-5',
      '2',
      'yes',
    ]);
    expect(rowOf(`${INVOICE_PAGES}-page pagination`).slice(2)).toEqual([
      'legit',
      'completed',
      String(INVOICE_PAGES + 1),
      '-',
      '0',
      'yes',
    ]);
    expect(rowOf('a period-3 cycle over three tools').slice(3, 7)).toEqual(['cycle', '6', '4-8', '3']);
    expect(rowOf('distinct useless calls').slice(2, 5)).toEqual(['bounded', 'MAX_ROUND_TRIPS', '50']);
  });

  it('totals each set under each policy: legitimate completed, loops stopped and in time, bounded, rounds, wasted', () => {
    const start = lines.findIndex((line) => line.startsWith('| set '));
    expect(cellsOf(lines[start])).toEqual([...TOTALS_HEADER]);
    const totals = lines.slice(start + 2, start + 2 + 8).map(cellsOf);
    expect(totals.map((cells) => cells.slice(0, 2))).toEqual(
      ['v2', 'v3'].flatMap((set) => [
        [set, 'guarded (defaults)'],
        ...STEP_CAP_POLICIES.map((policy) => [set, `${policy.name}, guard off`]),
      ]),
    );
    const legitimate = ofKind('legitimate').length;
    const loops = ofKind('loop').length;
    const legitGaps = ofKind('legitimate').filter((s) =>
      KNOWN_GUARD_GAPS[s.name]?.some((problem) => problem.startsWith('expected completed')),
    ).length;
    const loopGaps = ofKind('loop').filter((s) => gap(s.name)).length;
    const v2 = rows.filter((row) => row.scenario.set === 'v2');
    const sum = (pick: (row: ScenarioRow) => number) => v2.reduce((total, row) => total + pick(row), 0);
    expect(totals[0]).toEqual([
      'v2',
      'guarded (defaults)',
      `${legitimate - legitGaps}/${legitimate}`,
      `${loops}/${loops}`,
      `${loops - loopGaps}/${loops}`,
      '2/2',
      String(sum((row) => row.guarded.roundTrips)),
      String(sum((row) => row.guarded.wastedRoundTrips)),
    ]);
    STEP_CAP_POLICIES.forEach((_policy, index) => {
      expect(totals[1 + index]?.[5]).toBe('2/2');
      expect(totals[1 + index]?.[7]).toBe(String(sum((row) => row.stepCaps[index]?.wastedRoundTrips ?? 0)));
    });
  });

  it('counts the v3 scenarios per class, as expected out of each kind, with the ids of those that are not', () => {
    const start = lines.findIndex((line) => line.startsWith('| class '));
    expect(cellsOf(lines[start])).toEqual([...CLASS_HEADER]);
    const classes = lines.slice(start + 2, start + 2 + GUARD_CLASS_NAMES.length).map(cellsOf);
    expect(classes.map((cells) => cells[1])).toEqual(GUARD_CLASS_NAMES);
    for (const cells of classes) {
      const ofClass = scenariosOf('v3').filter((s) => s.guardClass === cells[1]);
      const failing = ofClass.filter((s) => Object.hasOwn(KNOWN_V3_FAILURES, s.name));
      expect(cells[5]).toBe(failing.length === 0 ? '-' : failing.map((s) => s.id).join(' '));
      const legit = ofClass.filter((s) => s.kind === 'legitimate');
      const legitOk = legit.filter((s) => !failing.includes(s)).length;
      expect(cells[3]).toBe(`${legitOk}/${legit.length}`);
    }
  });

  it('lists the scenarios that did not end as expected, wrapped, and says so when none', () => {
    const v2 = rows.filter((row) => row.scenario.set === 'v2');
    const clean = formatScenarioTable(v2);
    expect(clean).toContain('every scenario ended as expected.');
    expect(clean).not.toContain('v3 by class');
    const [first, ...others] = v2;
    if (first === undefined) throw new Error('no rows');
    const problem = `expected completed, got stopped (LOOP_DETECTED) at round 3 by exact-repeat ${'over rounds 1,2,3 '.repeat(6)}`;
    const broken = formatScenarioTable([
      { ...first, guarded: { ...first.guarded, problems: [problem] } },
      ...others,
    ]).split('\n');
    const at = broken.indexOf('not as expected (1):');
    expect(at).toBeGreaterThan(0);
    expect(broken[at + 1]).toMatch(/^ {2}1 contract-mismatch loop: expected completed, got stopped/);
    expect(broken[at + 2]).toMatch(/^ {7}\S/);
    expect(Math.max(...broken.map((line) => line.length))).toBeLessThanOrEqual(NARROW_WIDTH);
  });

  it('is what `npm run scenarios` prints, which says whether every scenario ended as expected', async () => {
    const report = await loopScenariosReport();
    expect(report.text).toBe(table);
    expect(report.allCorrect).toBe(knownFailures === 0);
  }, 60_000);

  it('is shown in docs/loop-and-guard.md as printed (regenerate it: npm run scenarios)', () => {
    const readme = readFileSync(new URL('../../docs/loop-and-guard.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### The loop scenarios'));
    const shown = /```text\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(shown).toBe(table);
  });
});

describe('the wide table (--wide)', () => {
  let lines: string[];
  beforeAll(() => {
    lines = formatWideScenarioTable(rows).split('\n');
  });
  const rowOf = (name: string) => cellsOf(lines.find((line) => cellsOf(line)[2] === name));

  it('has every column, the step caps too, one row per scenario in order, then the same summary', () => {
    expect(cellsOf(lines[0])).toEqual([...WIDE_SCENARIO_TABLE_HEADER]);
    const body = lines.slice(2, 2 + loopScenarios.length).map(cellsOf);
    expect(body.map((cells) => [Number(cells[0]), cells[1], cells[2]])).toEqual(
      loopScenarios.map((scenario) => [scenario.id, scenario.family, scenario.name]),
    );
    for (const cells of body) expect(cells).toHaveLength(WIDE_SCENARIO_TABLE_HEADER.length);
    expect(lines[2 + loopScenarios.length]).toBe('');
    const summary = formatScenarioTable(rows).split('\n');
    expect(lines.slice(3 + loopScenarios.length)).toEqual(summary.slice(summary.indexOf('') + 1));
  });

  it('shows a loop under each step cap, and long legitimate work the caps stop', () => {
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
  });
});

describe('the JSON form (--json)', () => {
  it('holds every scenario with what it states and each run, the totals and the classes', () => {
    const json = JSON.parse(JSON.stringify(scenarioTableJson(rows)));
    expect(json.schemaVersion).toBe(1);
    expect(json.allAsExpected).toBe(knownFailures === 0);
    expect(json.policies.map((p: { name: string }) => p.name)).toEqual([
      'guarded',
      'cap 10',
      'cap 20',
      'cap 25',
    ]);
    expect(json.scenarios.map((s: { id: number }) => s.id)).toEqual(loopScenarios.map((s) => s.id));
    expect(json.scenarios[0]).toMatchObject({
      id: 1,
      set: 'v2',
      guardClass: null,
      name: 'contract-mismatch loop',
      kind: 'loop',
      expected: 'LOOP_DETECTED',
      detector: 'exact-repeat',
      evidentAt: 2,
      deadline: 5,
      asExpected: true,
      problems: [],
      guarded: {
        outcome: 'stopped',
        reason: 'LOOP_DETECTED',
        detector: 'exact-repeat',
        roundTrips: 3,
        wellFormed: true,
      },
    });
    expect(
      json.scenarios[0].stepCaps.map((run: { wastedRoundTrips: number }) => run.wastedRoundTrips),
    ).toEqual([9, 19, 24]);
    const v3 = json.scenarios.find((s: { set: string }) => s.set === 'v3');
    expect(v3.guardClass).toBe('ack-new-state');
    expect(json.totals).toEqual(JSON.parse(JSON.stringify(scenarioTotals(rows))));
    expect(json.classes.map((c: { guardClass: string }) => c.guardClass)).toEqual(GUARD_CLASS_NAMES);
  });
});
