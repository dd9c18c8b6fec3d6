import type { LoopOutcome } from '../../src/core/loop-outcome.js';
import type { LoopScenario } from './loop-scenario.js';

/** Rounds a loop may run past the round where it became evident before it must be stopped. */
export const LOOP_STOP_SLACK = 3;

/**
 * The last round by which a loop scenario must be stopped: `evidentAt + 3`; a cycle of period k, which
 * needs two periods to show, `evidentAt + k + 1` (2k + 1 rounds after its start, `evidentAt - k`).
 * Undefined for a scenario that is not a loop.
 */
export function stopDeadline(scenario: Pick<LoopScenario, 'evidentAt' | 'period'>): number | undefined {
  const { evidentAt, period } = scenario;
  if (evidentAt === undefined) return undefined;
  return period === undefined ? evidentAt + LOOP_STOP_SLACK : evidentAt + period + 1;
}

/**
 * Rounds spent on a loop: from the round where it became evident to the last round run, both counted (a
 * loop evident at round 2 and stopped at round 3 wasted 2). 0 for a scenario that is not a loop, and for a
 * run that ended before the loop showed.
 */
export function wastedRounds(scenario: Pick<LoopScenario, 'evidentAt'>, roundTrips: number): number {
  const { evidentAt } = scenario;
  if (evidentAt === undefined || roundTrips < evidentAt) return 0;
  return roundTrips - evidentAt + 1;
}

/**
 * What is wrong with a guarded run of a scenario, measured against what the scenario states: the outcome
 * and stop reason, the detector, the stop no earlier than the loop showed and no later than its deadline.
 * Empty when the run ended as expected. Pure.
 */
export function scenarioProblems(
  scenario: LoopScenario,
  outcome: LoopOutcome,
  roundTrips: number,
): readonly string[] {
  const problems: string[] = [];
  const ended =
    outcome.type === 'stopped' ? `stopped (${outcome.reason}) at round ${roundTrips}` : outcome.type;
  if (scenario.expected === 'completed') {
    if (outcome.type !== 'completed') problems.push(`expected completed, got ${ended}${firedBy(outcome)}`);
    return problems;
  }
  if (outcome.type !== 'stopped' || outcome.reason !== scenario.expected) {
    problems.push(`expected ${scenario.expected}, got ${ended}${firedBy(outcome)}`);
    return problems;
  }
  const detector = outcome.evidence.kind === 'loop' ? outcome.evidence.detector : undefined;
  if (scenario.detector !== undefined && detector !== scenario.detector) {
    problems.push(`expected the ${scenario.detector} detector, got ${detector ?? outcome.evidence.kind}`);
  }
  const deadline = stopDeadline(scenario);
  if (scenario.evidentAt !== undefined && roundTrips < scenario.evidentAt) {
    problems.push(
      `stopped at round ${roundTrips}, before the loop was evident (round ${scenario.evidentAt})`,
    );
  }
  if (deadline !== undefined && roundTrips > deadline) {
    problems.push(`stopped at round ${roundTrips}, after its deadline (round ${deadline})`);
  }
  return problems;
}

function firedBy(outcome: LoopOutcome): string {
  if (outcome.type !== 'stopped' || outcome.evidence.kind !== 'loop') return '';
  const { detector, rounds } = outcome.evidence;
  return ` by ${detector} over rounds ${rounds.join(',')}`;
}
