import { createToolRuntime } from '../../src/chain/runtime.js';
import type { LoopDetector } from '../../src/core/guard-state.js';
import type { LoopOutcome, StopReason } from '../../src/core/loop-outcome.js';
import type { Message } from '../../src/core/message.js';
import type { RunEvent, RunEventListener } from '../../src/core/run-event.js';
import { runToolLoop } from '../../src/run/run-tool-loop.js';
import { historyProblems } from '../../src/testing/history-problems.js';
import { scenarioProblems, wastedRounds } from './judge-scenario-run.js';
import type { LoopScenario, ScenarioOptions, ScenarioRun } from './loop-scenario.js';
import { loopScenarios } from './loop-scenarios.js';

/** A loop policy a scenario is run under. */
export interface ScenarioPolicy {
  readonly name: string;
  /** Whose default the policy mimics, for the table's legend. */
  readonly mimics?: string;
  /** Replaces the scenario's own guard and ceiling; undefined runs the scenario's options as they are. */
  readonly override?: ScenarioOptions;
}

/** toolwarden's defaults, with the options the scenario declares (a raised ceiling, per-loop hints). */
export const GUARDED_POLICY: ScenarioPolicy = { name: 'guarded' };

/** Step-count-only policies, the defaults of OpenAI Agents SDK (10), Vercel AI SDK (20), LangGraph (25). */
export const STEP_CAP_POLICIES: readonly ScenarioPolicy[] = [
  {
    name: 'cap 10',
    mimics: 'OpenAI Agents SDK (maxTurns 10)',
    override: { guard: false, maxRoundTrips: 10 },
  },
  { name: 'cap 20', mimics: 'Vercel AI SDK (20 steps)', override: { guard: false, maxRoundTrips: 20 } },
  { name: 'cap 25', mimics: 'LangGraph (recursion limit 25)', override: { guard: false, maxRoundTrips: 25 } },
];

/** One scenario under one policy. */
export interface PolicyRun extends ScenarioRun {
  readonly policy: string;
  readonly reason: StopReason | undefined;
  /** The detector of a loop stop. */
  readonly detector: LoopDetector | undefined;
  /** Rounds from the one where the loop became evident to the last (0 unless the scenario is a loop). */
  readonly wastedRoundTrips: number;
  /** `guard-warn` events seen. */
  readonly guardWarnings: number;
  /** Tool messages that carry a note of the guard. */
  readonly notes: number;
  /** `historyProblems` found nothing in any request's history. */
  readonly wellFormed: boolean;
  /** What is wrong against the scenario's expectation (guarded runs only; step caps have no expectation). */
  readonly problems: readonly string[];
}

export interface ScenarioRow {
  readonly scenario: LoopScenario;
  readonly guarded: PolicyRun;
  /** In the order of `STEP_CAP_POLICIES`. */
  readonly stepCaps: readonly PolicyRun[];
}

/**
 * Runs one scenario, freshly built, under one policy: its first request, then each follow-up as the next
 * request of one session (a `MemoryStore`, one session id) until one does not complete.
 */
export async function runScenario(
  scenario: LoopScenario,
  policy: ScenarioPolicy,
  /** Sees every event of every request too (an audit listener: its wish for digests is kept). */
  observe?: RunEventListener,
): Promise<PolicyRun> {
  const setup = scenario.build();
  const { model, tools, followUps = [] } = setup;
  const options = policy.override ?? setup.options ?? {};
  // One runtime for the scenario: its memory store keeps the session across the follow-ups.
  const runtime = createToolRuntime({ tools });
  const session = followUps.length > 0 ? { sessionId: `scenario-${scenario.id}` } : {};
  let guardWarnings = 0;
  const requests: LoopOutcome[] = [];
  let messages: readonly Message[] = setup.messages;
  for (let index = 0; ; index++) {
    const outcome = await runToolLoop({
      model,
      runtime,
      messages,
      ...options,
      ...session,
      onEvent: (event: RunEvent) => {
        if (event.type === 'guard-warn') guardWarnings++;
        observe?.(event);
      },
    });
    requests.push(outcome);
    const next = followUps[index];
    if (outcome.type !== 'completed' || next === undefined) break;
    messages = [...outcome.messages, { role: 'user', content: next }];
  }
  const outcome = requests.at(-1) as LoopOutcome;
  const roundTrips = requests.reduce((sum, run) => sum + run.roundTrips, 0);
  const run: ScenarioRun = {
    outcome,
    requests,
    roundTrips,
    toolCalls: requests.reduce((sum, request) => sum + request.toolCalls, 0),
  };
  const stopped = outcome.type === 'stopped' ? outcome : undefined;
  const wellFormed = requests.every((request) => historyProblems(request.messages).length === 0);
  const notes = outcome.messages.filter(
    (message) => message.role === 'tool' && message.note !== undefined,
  ).length;
  // A warning or a note changes what a real model does next: legitimate work must not get one.
  const warned =
    scenario.kind === 'legitimate' && (guardWarnings > 0 || notes > 0)
      ? [`the guard warned legitimate work (guard-warn events: ${guardWarnings}, notes: ${notes})`]
      : [];
  const problems =
    policy.override === undefined
      ? [
          ...scenarioProblems(scenario, outcome, roundTrips),
          ...(setup.check?.(run) ?? []),
          ...warned,
          ...(wellFormed ? [] : ['the history is malformed']),
        ]
      : [];
  return {
    ...run,
    policy: policy.name,
    reason: stopped?.reason,
    detector: stopped?.evidence.kind === 'loop' ? stopped.evidence.detector : undefined,
    wastedRoundTrips: wastedRounds(scenario, roundTrips),
    guardWarnings,
    notes,
    wellFormed,
    problems,
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
    rows.push({ scenario, guarded, stepCaps });
  }
  return rows;
}
