import type { ToolLoopOptions } from '../../run/loop-options.js';
import type { LoopOutcome, StopReason } from '../../run/loop-outcome.js';
import { runToolLoop } from '../../run/run-tool-loop.js';
import { historyProblems } from '../../testing/history-problems.js';
import type { LoopScenario, ScenarioExpectation } from './loop-scenario.js';
import { loopScenarios } from './loop-scenarios.js';
import { roundsAfterFirstRepeat } from './rounds-after-first-repeat.js';

/** A loop policy a scenario is run under. */
export interface ScenarioPolicy {
  readonly name: string;
  /** Whose default the policy mimics, for the table's legend. */
  readonly mimics?: string;
  readonly options: Pick<ToolLoopOptions, 'guard' | 'maxRoundTrips'>;
}

/** toolwarden's defaults: ceiling 20, semantic guard on, nudge on. */
export const GUARDED_POLICY: ScenarioPolicy = { name: 'guarded', options: {} };

/** Step-count-only policies, the defaults of OpenAI Agents SDK (10), Vercel AI SDK (20), LangGraph (25). */
export const STEP_CAP_POLICIES: readonly ScenarioPolicy[] = [
  { name: 'cap 10', mimics: 'OpenAI Agents SDK (maxTurns 10)', options: { guard: false, maxRoundTrips: 10 } },
  { name: 'cap 20', mimics: 'Vercel AI SDK (20 steps)', options: { guard: false, maxRoundTrips: 20 } },
  { name: 'cap 25', mimics: 'LangGraph (recursion limit 25)', options: { guard: false, maxRoundTrips: 25 } },
];

/** One scenario under one policy. */
export interface PolicyRun {
  readonly policy: string;
  readonly expected: ScenarioExpectation;
  readonly outcome: LoopOutcome;
  readonly reason: StopReason | undefined;
  readonly roundTrips: number;
  /** Guarded: `outcome.wastedRoundTrips`. Step caps: `roundsAfterFirstRepeat` (0 for legitimate tasks). */
  readonly wastedRoundTrips: number;
  readonly toolCalls: number;
  /** `guard-warn` events seen. */
  readonly guardWarnings: number;
  /** The nudge reached the model (a tool message carries it). */
  readonly nudged: boolean;
  /** `historyProblems(outcome.messages)` found nothing. */
  readonly wellFormed: boolean;
  /** Ended as the scenario expects: completed, or stopped with the expected reason. */
  readonly right: boolean;
}

export interface ScenarioRow {
  readonly id: number;
  readonly name: string;
  readonly legitimate: boolean;
  readonly expected: ScenarioExpectation;
  readonly guarded: PolicyRun;
  /** In the order of `STEP_CAP_POLICIES`. */
  readonly stepCaps: readonly PolicyRun[];
}

/** Runs one scenario, freshly built, under one policy. */
export async function runScenario(scenario: LoopScenario, policy: ScenarioPolicy): Promise<PolicyRun> {
  const { model, tools, messages, expected } = scenario.build();
  let guardWarnings = 0;
  const outcome = await runToolLoop({
    model,
    tools,
    messages,
    ...policy.options,
    onEvent: (event) => {
      if (event.type === 'guard-warn') guardWarnings++;
    },
  });
  const stopped = outcome.type === 'stopped' ? outcome : undefined;
  const guarded = policy.options.guard !== false;
  const wasted = guarded
    ? (stopped?.wastedRoundTrips ?? 0)
    : scenario.legitimate
      ? 0
      : roundsAfterFirstRepeat(outcome.steps, outcome.roundTrips);
  return {
    policy: policy.name,
    expected,
    outcome,
    reason: stopped?.reason,
    roundTrips: outcome.roundTrips,
    wastedRoundTrips: wasted,
    toolCalls: outcome.toolCalls,
    guardWarnings,
    nudged: outcome.messages.some((m) => m.role === 'tool' && m.note !== undefined),
    wellFormed: historyProblems(outcome.messages).length === 0,
    right: expected === 'completed' ? outcome.type === 'completed' : stopped?.reason === expected,
  };
}

/** Runs every scenario under the guarded defaults and under each step-count-only policy, one at a time. */
export async function runLoopScenarios(
  scenarios: readonly LoopScenario[] = loopScenarios,
): Promise<ScenarioRow[]> {
  const rows: ScenarioRow[] = [];
  for (const scenario of scenarios) {
    const guarded = await runScenario(scenario, GUARDED_POLICY);
    const stepCaps: PolicyRun[] = [];
    for (const policy of STEP_CAP_POLICIES) stepCaps.push(await runScenario(scenario, policy));
    rows.push({
      id: scenario.id,
      name: scenario.name,
      legitimate: scenario.legitimate,
      expected: guarded.expected,
      guarded,
      stepCaps,
    });
  }
  return rows;
}
