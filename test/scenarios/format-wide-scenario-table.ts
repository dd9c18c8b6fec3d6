import { formatScenarioSummary } from './format-scenario-summary.js';
import { stopDeadline } from './judge-scenario-run.js';
import type { LoopScenario } from './loop-scenario.js';
import { pipeTable } from './pipe-table.js';
import { type PolicyRun, type ScenarioRow, STEP_CAP_POLICIES } from './run-loop-scenarios.js';

export const WIDE_SCENARIO_TABLE_HEADER = [
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
 * `npm run scenarios -- --wide`: per scenario, the guarded run's outcome, stop reason (and detector),
 * rounds, the round the loop became evident (and the deadline of its stop), wasted rounds, the same
 * scenario under each step cap, and whether the guarded run ended as the scenario states; then the summary
 * of every form. Its rows are wider than a terminal. Pure.
 */
export function formatWideScenarioTable(rows: readonly ScenarioRow[]): string {
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
  return [...pipeTable(WIDE_SCENARIO_TABLE_HEADER, body), '', ...formatScenarioSummary(rows)].join('\n');
}

function reasonCell(run: PolicyRun): string {
  if (run.reason === undefined) return '-';
  return run.detector === undefined ? run.reason : `${run.reason}: ${run.detector}`;
}

/** The round a loop became evident and, in brackets, the deadline of its stop; `-` for no loop. */
function evidentCell(scenario: LoopScenario): string {
  const deadline = stopDeadline(scenario);
  return scenario.evidentAt === undefined ? '-' : `${scenario.evidentAt} (by ${deadline})`;
}

function capCell(run: PolicyRun): string {
  const wasted = run.wastedRoundTrips > 0 ? `, ${run.wastedRoundTrips} wasted` : '';
  if (run.outcome.type === 'completed') return `completed in ${run.roundTrips}${wasted}`;
  return `${run.reason ?? run.outcome.type} at ${run.roundTrips}${wasted}`;
}
