import { formatScenarioSummary, NARROW_WIDTH } from './format-scenario-summary.js';
import { GUARD_CLASSES } from './guard-class.js';
import { stopDeadline } from './judge-scenario-run.js';
import type { LoopScenario } from './loop-scenario.js';
import { columnWidths, pipeRow, pipeRule } from './pipe-table.js';
import type { PolicyRun, ScenarioRow } from './run-loop-scenarios.js';

export const SCENARIO_TABLE_HEADER = [
  '#',
  'scenario',
  'kind',
  'guarded',
  'rounds',
  'stop in',
  'wasted',
  'ok',
] as const;

/** The column the scenario names are cut in (with `…`) when the table would be wider than a terminal. */
const NAME_COLUMN = 1;
const MIN_NAME_WIDTH = 16;

/**
 * The scenario table as `npm run scenarios` prints it by default, at most `NARROW_WIDTH` (120) columns
 * wide: per scenario, how the guarded run ended (completed, the detector of a loop stop, the reason of
 * another stop) and after how many rounds, the rounds a loop's stop must fall in (from the round it became
 * evident to its deadline), wasted rounds, and whether it ended as the scenario states; a line before each
 * set and each class of issue 24; then the summary (totals per set and policy, classes, what did not end
 * as expected, the legend). The step caps per scenario are in the wide form. Pure.
 */
export function formatScenarioTable(rows: readonly ScenarioRow[]): string {
  const body = rows.map(({ scenario, guarded }) => [
    String(scenario.id),
    scenario.name,
    kindCell(scenario),
    guardedCell(guarded),
    String(guarded.roundTrips),
    stopWindowCell(scenario),
    String(guarded.wastedRoundTrips),
    guarded.problems.length === 0 ? 'yes' : 'NO',
  ]);
  const widths = columnWidths(SCENARIO_TABLE_HEADER, body);
  // Everything but the names, with the cell separators ("| " + " | " between + " |").
  const rest = widths.reduce((sum, width, column) => sum + (column === NAME_COLUMN ? 0 : width), 0);
  const separators = 3 * widths.length + 1;
  widths[NAME_COLUMN] = Math.max(
    MIN_NAME_WIDTH,
    Math.min(widths[NAME_COLUMN] ?? 0, NARROW_WIDTH - rest - separators),
  );
  const lines = [pipeRow(SCENARIO_TABLE_HEADER, widths), pipeRule(widths)];
  let section: string | undefined;
  rows.forEach((row, index) => {
    const title = sectionTitle(row.scenario);
    if (title !== section) lines.push(title);
    section = title;
    lines.push(pipeRow(body[index] ?? [], widths));
  });
  return [...lines, '', ...formatScenarioSummary(rows)].join('\n');
}

/** The line that opens a set, or a class of the v3 set. */
function sectionTitle(scenario: LoopScenario): string {
  if (scenario.guardClass === undefined) return `${scenario.set}: the loop corpus of issue 9`;
  const { number, kind, title } = GUARD_CLASSES[scenario.guardClass];
  const asks = kind === 'legitimate' ? 'legitimate work to complete' : 'loops to stop';
  return `${scenario.set} class ${number}, ${scenario.guardClass} (${asks}): ${title}`;
}

function kindCell(scenario: LoopScenario): string {
  return scenario.kind === 'legitimate' ? 'legit' : scenario.kind;
}

/** How the guarded run ended: `completed`, the detector of a loop stop, or the reason of another stop. */
function guardedCell(run: PolicyRun): string {
  if (run.outcome.type === 'completed') return 'completed';
  if (run.reason === 'LOOP_DETECTED') return run.detector ?? 'LOOP_DETECTED';
  return run.reason ?? run.outcome.type;
}

/** For a loop, the rounds its stop must fall in: from the round it became evident to its deadline. */
function stopWindowCell(scenario: LoopScenario): string {
  const deadline = stopDeadline(scenario);
  return scenario.evidentAt === undefined || deadline === undefined
    ? '-'
    : `${scenario.evidentAt}-${deadline}`;
}
