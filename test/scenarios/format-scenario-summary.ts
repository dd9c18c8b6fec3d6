import { pipeTable } from './pipe-table.js';
import type { ScenarioRow } from './run-loop-scenarios.js';
import { STEP_CAP_POLICIES } from './run-loop-scenarios.js';
import { asExpected, guardClassCounts, scenarioTotals, type Tally } from './scenario-totals.js';
import { wrapText } from './wrap-text.js';

/** The widest line the default form of `npm run scenarios` prints: a 120-column terminal. */
export const NARROW_WIDTH = 120;

export const TOTALS_HEADER = [
  'set',
  'policy',
  'legitimate completed',
  'loops stopped',
  'in time',
  'bounded ended',
  'rounds',
  'wasted',
] as const;

export const CLASS_HEADER = [
  'class',
  'name',
  'the issue asks',
  'legitimate',
  'loops',
  'not as expected',
] as const;

/** The legend, a paragraph a string (wrapped when printed). */
const LEGEND = [
  "guarded: how the run under toolwarden's defaults (and the scenario's own options) ended: completed, the detector " +
    'of a loop stop, or the reason of another stop; rounds: its round trips, over the requests of a session. stop ' +
    'in: for a loop, the round from which it brings nothing new (evident) to the last round by which it must be ' +
    'stopped (3 rounds later; a cycle of period k, 2k + 1 rounds after its start). wasted: rounds from the evident ' +
    'one to the last one run, both counted. in time: a loop stopped within those rounds (guarded: also for the ' +
    'reason and by the detector the scenario states). ok: the run ended as the scenario states.',
  `step caps (semantic guard off): ${STEP_CAP_POLICIES.map((p) => `${p.name} = ${p.mimics ?? p.name}`).join(', ')}; ` +
    'per scenario with --wide, every figure with --json.',
  'v2: the corpus of issue 9. v3: the evidence of issue 24 (loop guard v3), by class; what fails today, and why, ' +
    'is listed in test/scenarios/__fixtures__/known-v3-failures.ts.',
];

const cell = ({ count, of }: Tally) => `${count}/${of}`;

/**
 * What follows the scenario table in every text form: the totals per set and policy, the classes of issue
 * 24 (when a v3 scenario ran), the scenarios that did not end as expected with their problems, and a
 * legend; no line wider than `NARROW_WIDTH`. Pure.
 */
export function formatScenarioSummary(rows: readonly ScenarioRow[]): string[] {
  const totals = scenarioTotals(rows).map((t) => [
    t.set,
    t.policy === 'guarded' ? 'guarded (defaults)' : `${t.policy}, guard off`,
    cell(t.legitimateCompleted),
    cell(t.loopsStopped),
    cell(t.loopsInTime),
    cell(t.boundedEnded),
    String(t.rounds),
    String(t.wastedRounds),
  ]);
  const classes = guardClassCounts(rows).map((c) => [
    String(c.number),
    c.guardClass,
    c.kind === 'legitimate' ? 'complete the work' : 'stop the loop',
    cell(c.legitimate),
    cell(c.loops),
    c.notAsExpected.length === 0 ? '-' : c.notAsExpected.join(' '),
  ]);
  const failures = rows.filter((row) => !asExpected(row));
  return [
    ...pipeTable(TOTALS_HEADER, totals),
    '',
    ...(classes.length === 0
      ? []
      : [
          'v3 by class (as expected / scenarios, under the guarded defaults):',
          ...pipeTable(CLASS_HEADER, classes),
          '',
        ]),
    ...(failures.length === 0
      ? ['every scenario ended as expected.']
      : [
          `not as expected (${failures.length}):`,
          ...failures.flatMap(({ scenario, guarded }) =>
            wrapText(
              `${scenario.id} ${scenario.name}: ${guarded.problems.join('; ')}`,
              NARROW_WIDTH - 2,
              '     ',
            ).map((line) => `  ${line}`),
          ),
        ]),
    '',
    ...LEGEND.flatMap((line) => wrapText(line, NARROW_WIDTH)),
  ];
}
