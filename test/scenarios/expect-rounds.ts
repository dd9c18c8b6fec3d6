import type { ScenarioRun } from './loop-scenario.js';

/** A scenario's `check` that the run took exactly `rounds` round trips (the task ran as scripted). */
export function expectRounds(rounds: number): (run: ScenarioRun) => readonly string[] {
  return ({ roundTrips }) => (roundTrips === rounds ? [] : [`expected ${rounds} rounds, got ${roundTrips}`]);
}
