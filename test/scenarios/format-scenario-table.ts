import { stopDeadline } from './judge-scenario-run.js';
import type { LoopScenario } from './loop-scenario.js';
import { type PolicyRun, type ScenarioRow, STEP_CAP_POLICIES } from './run-loop-scenarios.js';

export const SCENARIO_TABLE_HEADER = [
  '#',
  'family',
  'scenario',
  'kind',
  'outcome',
  'reason',
  'rounds',
  'evident',
  'wasted',
  ...STEP_CAP_POLICIES.map((policy) => `${policy.name}, guard off`),
  'as expected',
] as const;

/**
 * The scenario table: per scenario, the guarded run's outcome, stop reason (and detector), rounds, the
 * round the loop became evident (and the deadline of its stop), wasted rounds, the same scenario under
 * each step cap, and whether the guarded run ended as the scenario states. Then the totals per policy,
 * the scenarios that did not end as expected, and a legend. Pure.
 */
export function formatScenarioTable(rows: readonly ScenarioRow[]): string {
  const body = rows.map(({ scenario, guarded, stepCaps }) => [
    String(scenario.id),
    scenario.family,
    scenario.name,
    scenario.kind,
    guarded.outcome.type,
    reasonCell(guarded),
    String(guarded.roundTrips),
    evidentCell(scenario),
    String(guarded.wastedRoundTrips),
    ...stepCaps.map(capCell),
    guarded.problems.length === 0 ? 'yes' : 'NO',
  ]);
  const widths = SCENARIO_TABLE_HEADER.map((cell, column) =>
    Math.max(cell.length, ...body.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const failures = rows.filter((row) => row.guarded.problems.length > 0);
  return [
    line(SCENARIO_TABLE_HEADER),
    line(widths.map((width) => '-'.repeat(width))),
    ...body.map(line),
    '',
    totalsLine('guarded (toolwarden defaults)', rows, (row) => row.guarded),
    ...STEP_CAP_POLICIES.map((policy, index) =>
      totalsLine(`${policy.name}, guard off`, rows, (row) => row.stepCaps[index]),
    ),
    '',
    ...(failures.length === 0
      ? ['every scenario ended as expected.']
      : [
          'not as expected:',
          ...failures.map(
            (row) => `  ${row.scenario.id} ${row.scenario.name}: ${row.guarded.problems.join('; ')}`,
          ),
        ]),
    '',
    `step caps (semantic guard off): ${STEP_CAP_POLICIES.map((p) => `${p.name} = ${p.mimics ?? p.name}`).join(', ')}.`,
    'evident: the round (counted over the requests of a session) from which the loop brings nothing new, and',
    'in brackets the last round by which it must be stopped (3 rounds later; a cycle of period k, 2k + 1 rounds',
    'after its start). wasted: rounds from the evident one to the last one run, both counted.',
  ].join('\n');
}

function reasonCell(run: PolicyRun): string {
  if (run.reason === undefined) return '-';
  return run.detector === undefined ? run.reason : `${run.reason}: ${run.detector}`;
}

function evidentCell(scenario: LoopScenario): string {
  const deadline = stopDeadline(scenario);
  return scenario.evidentAt === undefined ? '-' : `${scenario.evidentAt} (by ${deadline})`;
}

function capCell(run: PolicyRun): string {
  const wasted = run.wastedRoundTrips > 0 ? `, ${run.wastedRoundTrips} wasted` : '';
  if (run.outcome.type === 'completed') return `completed in ${run.roundTrips}${wasted}`;
  return `${run.reason ?? run.outcome.type} at ${run.roundTrips}${wasted}`;
}

/** One policy's totals: legitimate tasks completed, loops stopped, runaways ended, rounds and wasted rounds. */
function totalsLine(
  name: string,
  rows: readonly ScenarioRow[],
  pick: (row: ScenarioRow) => PolicyRun | undefined,
): string {
  const runs = rows.flatMap((row) => {
    const run = pick(row);
    return run === undefined ? [] : [{ scenario: row.scenario, run }];
  });
  const guarded = runs.some(({ run }) => run.policy === 'guarded');
  const of = (kind: LoopScenario['kind'], ok: (run: PolicyRun) => boolean) => {
    const all = runs.filter(({ scenario }) => scenario.kind === kind);
    return `${all.filter(({ run }) => ok(run)).length}/${all.length}`;
  };
  const stopped = (run: PolicyRun) => run.outcome.type === 'stopped';
  const sum = (value: (run: PolicyRun) => number) => runs.reduce((total, { run }) => total + value(run), 0);
  return [
    `${name}: legitimate completed ${of('legitimate', (run) => run.outcome.type === 'completed')}`,
    guarded
      ? `loops stopped in time ${of('loop', (run) => run.problems.length === 0)}`
      : `loops stopped ${of('loop', stopped)}`,
    `bounded ended ${of('bounded', stopped)}`,
    `rounds ${sum((run) => run.roundTrips)}`,
    `wasted rounds ${sum((run) => run.wastedRoundTrips)}`,
  ].join(', ');
}
