import { describe, expect, it } from 'vitest';
import type { LoopOutcome } from '../../src/core/loop-outcome.js';
import { scenarioProblems, stopDeadline, wastedRounds } from './judge-scenario-run.js';
import type { LoopScenario } from './loop-scenario.js';

const scenario = (fields: Partial<LoopScenario>): LoopScenario => ({
  id: 1,
  set: 'v2',
  family: 'test',
  name: 'test',
  description: '',
  kind: 'loop',
  expected: 'LOOP_DETECTED',
  build: () => {
    throw new Error('not built in these tests');
  },
  ...fields,
});

/** Only the fields the judge reads. */
const stopped = (reason: string, evidence: unknown) => ({ type: 'stopped', reason, evidence }) as LoopOutcome;
const completed = { type: 'completed' } as LoopOutcome;
const loopStop = (detector: string) =>
  stopped('LOOP_DETECTED', { kind: 'loop', detector, rounds: [1, 2, 3] });

describe('stopDeadline', () => {
  it('gives a loop 3 rounds after it shows, a cycle of period k 2k + 1 after its start', () => {
    expect(stopDeadline({ evidentAt: 2 })).toBe(5);
    // A-B-A-B from round 1: the first repeating round is 3; 2k + 1 = 5 rounds after round 1 is round 6.
    expect(stopDeadline({ evidentAt: 3, period: 2 })).toBe(6);
    expect(stopDeadline({ evidentAt: 5, period: 4 })).toBe(10);
    expect(stopDeadline({})).toBeUndefined();
  });
});

describe('wastedRounds', () => {
  it('counts from the evident round to the last one run, both included; 0 before it and without one', () => {
    expect(wastedRounds({ evidentAt: 2 }, 3)).toBe(2);
    expect(wastedRounds({ evidentAt: 2 }, 10)).toBe(9);
    expect(wastedRounds({ evidentAt: 4 }, 3)).toBe(0);
    expect(wastedRounds({}, 50)).toBe(0);
  });
});

describe('scenarioProblems', () => {
  it('finds nothing when a loop is stopped by the stated detector between its evident round and its deadline', () => {
    const loop = scenario({ detector: 'exact-repeat', evidentAt: 2 });
    for (const round of [2, 3, 4, 5])
      expect(scenarioProblems(loop, loopStop('exact-repeat'), round)).toEqual([]);
  });

  it('reports a stop too late, too early, by another detector, or for another reason', () => {
    const loop = scenario({ detector: 'exact-repeat', evidentAt: 2 });
    expect(scenarioProblems(loop, loopStop('exact-repeat'), 6)).toEqual([
      'stopped at round 6, after its deadline (round 5)',
    ]);
    expect(scenarioProblems(loop, loopStop('exact-repeat'), 1)).toEqual([
      'stopped at round 1, before the loop was evident (round 2)',
    ]);
    expect(scenarioProblems(loop, loopStop('cycle'), 3)).toEqual([
      'expected the exact-repeat detector, got cycle',
    ]);
    const ceiling = stopped('MAX_ROUND_TRIPS', { kind: 'ceiling' });
    expect(scenarioProblems(loop, ceiling, 50)).toEqual([
      'expected LOOP_DETECTED, got stopped (MAX_ROUND_TRIPS) at round 50',
    ]);
    expect(scenarioProblems(loop, completed, 4)).toEqual(['expected LOOP_DETECTED, got completed']);
  });

  it('reports a legitimate task that was stopped, naming the detector and its rounds', () => {
    const task = scenario({ kind: 'legitimate', expected: 'completed' });
    expect(scenarioProblems(task, completed, 12)).toEqual([]);
    expect(scenarioProblems(task, loopStop('same-result'), 3)).toEqual([
      'expected completed, got stopped (LOOP_DETECTED) at round 3 by same-result over rounds 1,2,3',
    ]);
  });

  it('accepts any detector when the scenario names none, and a bound stop with its reason', () => {
    expect(scenarioProblems(scenario({ evidentAt: 4, period: 2 }), loopStop('cycle'), 5)).toEqual([]);
    const bounded = scenario({ kind: 'bounded', expected: 'TOOL_CALL_LIMIT' });
    expect(scenarioProblems(bounded, stopped('TOOL_CALL_LIMIT', { kind: 'limit' }), 41)).toEqual([]);
  });
});
