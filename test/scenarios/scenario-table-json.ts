import { stopDeadline } from './judge-scenario-run.js';
import type { PolicyRun, ScenarioRow } from './run-loop-scenarios.js';
import { STEP_CAP_POLICIES } from './run-loop-scenarios.js';
import {
  asExpected,
  type ClassCount,
  guardClassCounts,
  type PolicyTotals,
  scenarioTotals,
} from './scenario-totals.js';

/** One policy's run of a scenario, as `npm run scenarios -- --json` gives it. */
export interface PolicyRunJson {
  readonly policy: string;
  /** `completed`, `stopped`, ... */
  readonly outcome: string;
  readonly reason: string | null;
  readonly detector: string | null;
  /** The rounds the loop evidence names. */
  readonly evidenceRounds: readonly number[] | null;
  readonly roundTrips: number;
  readonly toolCalls: number;
  readonly requests: number;
  readonly wastedRoundTrips: number;
  readonly guardWarnings: number;
  readonly notes: number;
  readonly wellFormed: boolean;
}

/** One scenario: what it states, and how it ran under the guarded defaults and each step cap. */
export interface ScenarioJson {
  readonly id: number;
  readonly set: string;
  readonly guardClass: string | null;
  readonly family: string;
  readonly name: string;
  readonly description: string;
  readonly kind: string;
  readonly expected: string;
  readonly detector: string | null;
  readonly evidentAt: number | null;
  readonly period: number | null;
  readonly deadline: number | null;
  readonly asExpected: boolean;
  /** What did not end as the scenario states (empty when it did). */
  readonly problems: readonly string[];
  readonly guarded: PolicyRunJson;
  readonly stepCaps: readonly PolicyRunJson[];
}

/** The whole report as data: every scenario, the totals, the classes of issue 24. */
export interface ScenarioTableJson {
  readonly schemaVersion: 1;
  readonly allAsExpected: boolean;
  readonly policies: readonly { readonly name: string; readonly mimics: string | null }[];
  readonly scenarios: readonly ScenarioJson[];
  readonly totals: readonly PolicyTotals[];
  readonly classes: readonly ClassCount[];
}

/** `npm run scenarios -- --json`: everything the table shows, and more, as data (absent values are null). Pure. */
export function scenarioTableJson(rows: readonly ScenarioRow[]): ScenarioTableJson {
  return {
    schemaVersion: 1,
    allAsExpected: rows.every(asExpected),
    policies: [
      { name: 'guarded', mimics: null },
      ...STEP_CAP_POLICIES.map((policy) => ({ name: policy.name, mimics: policy.mimics ?? null })),
    ],
    scenarios: rows.map((row) => {
      const { scenario, guarded, stepCaps } = row;
      return {
        id: scenario.id,
        set: scenario.set,
        guardClass: scenario.guardClass ?? null,
        family: scenario.family,
        name: scenario.name,
        description: scenario.description,
        kind: scenario.kind,
        expected: scenario.expected,
        detector: scenario.detector ?? null,
        evidentAt: scenario.evidentAt ?? null,
        period: scenario.period ?? null,
        deadline: stopDeadline(scenario) ?? null,
        asExpected: asExpected(row),
        problems: guarded.problems,
        guarded: runJson(guarded),
        stepCaps: stepCaps.map(runJson),
      };
    }),
    totals: scenarioTotals(rows),
    classes: guardClassCounts(rows),
  };
}

function runJson(run: PolicyRun): PolicyRunJson {
  const { outcome } = run;
  const evidence =
    outcome.type === 'stopped' && outcome.evidence.kind === 'loop' ? outcome.evidence : undefined;
  return {
    policy: run.policy,
    outcome: outcome.type,
    reason: run.reason ?? null,
    detector: run.detector ?? null,
    evidenceRounds: evidence === undefined ? null : evidence.rounds,
    roundTrips: run.roundTrips,
    toolCalls: run.toolCalls,
    requests: run.requests.length,
    wastedRoundTrips: run.wastedRoundTrips,
    guardWarnings: run.guardWarnings,
    notes: run.notes,
    wellFormed: run.wellFormed,
  };
}
