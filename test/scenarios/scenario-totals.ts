import { GUARD_CLASS_NAMES, GUARD_CLASSES, type GuardClass } from './guard-class.js';
import { stopDeadline } from './judge-scenario-run.js';
import type { LoopScenario, ScenarioSet } from './loop-scenario.js';
import type { PolicyRun, ScenarioRow } from './run-loop-scenarios.js';
import { STEP_CAP_POLICIES } from './run-loop-scenarios.js';

/** A count out of a total. */
export interface Tally {
  readonly count: number;
  readonly of: number;
}

/** One policy's figures over one set of scenarios. */
export interface PolicyTotals {
  readonly set: ScenarioSet;
  /** `guarded` or a step cap's name. */
  readonly policy: string;
  readonly legitimateCompleted: Tally;
  /** Loops stopped, whatever stopped them. */
  readonly loopsStopped: Tally;
  /**
   * Loops stopped between their evident round and their deadline; for the guarded runs, ended exactly as
   * the scenario states (the reason and detector too).
   */
  readonly loopsInTime: Tally;
  readonly boundedEnded: Tally;
  readonly rounds: number;
  readonly wastedRounds: number;
}

/** How the scenarios of one class of issue 24 end under the guarded defaults. */
export interface ClassCount {
  readonly guardClass: GuardClass;
  readonly number: number;
  /** What the issue asks of the class: legitimate work to complete, or loops to stop. */
  readonly kind: 'legitimate' | 'loop';
  readonly title: string;
  /** Legitimate scenarios of the class that ended as they state. */
  readonly legitimate: Tally;
  /** Loop scenarios of the class that ended as they state. */
  readonly loops: Tally;
  /** The ids of the class's scenarios that did not end as they state. */
  readonly notAsExpected: readonly number[];
}

const tally = (
  runs: readonly { scenario: LoopScenario; run: PolicyRun }[],
  ok: (run: PolicyRun, scenario: LoopScenario) => boolean,
): Tally => ({
  count: runs.filter(({ run, scenario }) => ok(run, scenario)).length,
  of: runs.length,
});

/** The guarded run ended as the scenario states. */
export const asExpected = (row: ScenarioRow): boolean => row.guarded.problems.length === 0;

/**
 * Per set present in the rows (in order), the totals of the guarded runs, then of each step cap. Pure.
 */
export function scenarioTotals(rows: readonly ScenarioRow[]): PolicyTotals[] {
  const sets = [...new Set(rows.map((row) => row.scenario.set))];
  return sets.flatMap((set) => {
    const inSet = rows.filter((row) => row.scenario.set === set);
    const policies: { name: string; pick: (row: ScenarioRow) => PolicyRun | undefined }[] = [
      { name: 'guarded', pick: (row) => row.guarded },
      ...STEP_CAP_POLICIES.map((policy, index) => ({
        name: policy.name,
        pick: (row: ScenarioRow) => row.stepCaps[index],
      })),
    ];
    return policies.map(({ name, pick }) => policyTotals(set, name, inSet, pick));
  });
}

function policyTotals(
  set: ScenarioSet,
  policy: string,
  rows: readonly ScenarioRow[],
  pick: (row: ScenarioRow) => PolicyRun | undefined,
): PolicyTotals {
  const runs = rows.flatMap((row) => {
    const run = pick(row);
    return run === undefined ? [] : [{ scenario: row.scenario, run }];
  });
  const ofKind = (kind: LoopScenario['kind']) => runs.filter(({ scenario }) => scenario.kind === kind);
  const stopped = (run: PolicyRun) => run.outcome.type === 'stopped';
  const inTime = (run: PolicyRun, scenario: LoopScenario) => {
    if (run.policy === 'guarded') return run.problems.length === 0;
    const deadline = stopDeadline(scenario) ?? 0;
    return stopped(run) && run.roundTrips >= (scenario.evidentAt ?? 0) && run.roundTrips <= deadline;
  };
  const sum = (value: (run: PolicyRun) => number) => runs.reduce((total, { run }) => total + value(run), 0);
  return {
    set,
    policy,
    legitimateCompleted: tally(ofKind('legitimate'), (run) => run.outcome.type === 'completed'),
    loopsStopped: tally(ofKind('loop'), stopped),
    loopsInTime: tally(ofKind('loop'), inTime),
    boundedEnded: tally(ofKind('bounded'), stopped),
    rounds: sum((run) => run.roundTrips),
    wastedRounds: sum((run) => run.wastedRoundTrips),
  };
}

/** Per class of issue 24 with a scenario in the rows, in the order: how its scenarios ended. Pure. */
export function guardClassCounts(rows: readonly ScenarioRow[]): ClassCount[] {
  return GUARD_CLASS_NAMES.flatMap((guardClass) => {
    const ofClass = rows.filter((row) => row.scenario.guardClass === guardClass);
    if (ofClass.length === 0) return [];
    const ofKind = (kind: LoopScenario['kind']) => ofClass.filter((row) => row.scenario.kind === kind);
    const count = (kind: LoopScenario['kind']): Tally => ({
      count: ofKind(kind).filter(asExpected).length,
      of: ofKind(kind).length,
    });
    const { number, kind, title } = GUARD_CLASSES[guardClass];
    return [
      {
        guardClass,
        number,
        kind,
        title,
        legitimate: count('legitimate'),
        loops: count('loop'),
        notAsExpected: ofClass.filter((row) => !asExpected(row)).map((row) => row.scenario.id),
      },
    ];
  });
}
