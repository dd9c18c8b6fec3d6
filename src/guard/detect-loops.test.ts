import { describe, expect, it } from 'vitest';
import { hash53, hashText } from './call-hash.js';
import { detectLoops, type LoopThresholds } from './detect-loops.js';
import { type GuardFinding, NO_FINDINGS } from './guard-types.js';
import { type GuardWindow, windowOf } from './guard-window.js';

const thresholds: LoopThresholds = {
  repeatLimit: 3,
  sameResultLimit: 3,
  maxCyclePeriod: 4,
  noProgressRounds: 4,
  transientRepeatLimit: 5,
};
const call = (tool: string, args: string, result: string) => ({
  tool,
  call: hash53(`${tool}#${args}`),
  result: hash53(result),
});
/** A window of one call per round, rounds numbered from 1. */
const rounds = (...calls: Array<ReturnType<typeof call>>): GuardWindow =>
  windowOf(calls.map((c, i) => ({ round: i + 1, calls: [c] })));

describe('detectLoops', () => {
  it('warns on the first repeat and stops on the second (exact repeat)', () => {
    const same = call('q', 'a', 'r');
    expect(detectLoops(rounds(same), 0, thresholds)).toEqual([]);
    const warn = detectLoops(rounds(same, same), 0, thresholds);
    expect(warn.map((f) => [f.level, f.evidence.detector])).toEqual([['warn', 'exact-repeat']]);
    const stop = detectLoops(rounds(same, same, same), 0, thresholds);
    expect(stop[0]).toMatchObject({
      level: 'stop',
      evidence: { detector: 'exact-repeat', occurrences: 3, rounds: [1, 2, 3] },
    });
  });

  it("collects findings in the caller's scratch array and leaves it empty", () => {
    const scratch: GuardFinding[] = [];
    const same = call('q', 'a', 'r');
    const found = detectLoops(rounds(same, same), 0, thresholds, scratch);
    expect(found.map((f) => f.evidence.detector)).toEqual(['exact-repeat']);
    expect(found).not.toBe(scratch);
    expect(scratch).toEqual([]);
    expect(detectLoops(rounds(same), 0, thresholds, scratch)).toBe(NO_FINDINGS);
  });

  it('does not call a polling tool whose result changes a loop', () => {
    const window = rounds(
      call('poll', 'job', 'r1'),
      call('poll', 'job', 'r2'),
      call('poll', 'job', 'r3'),
      call('poll', 'job', 'r4'),
    );
    expect(detectLoops(window, 0, thresholds)).toEqual([]);
  });

  it('stops the same result under reworded arguments', () => {
    const window = rounds(
      call('search', 'a', 'page'),
      call('search', 'b', 'page'),
      call('search', 'c', 'page'),
    );
    const findings = detectLoops(window, 0, thresholds);
    expect(findings.find((f) => f.level === 'stop')?.evidence).toMatchObject({
      detector: 'same-result',
      occurrences: 3,
    });
  });

  it('stops A-B-A-B once the period has repeated, and finds longer periods', () => {
    const a = call('a', '1', 'x');
    const b = call('b', '1', 'y');
    const ab = detectLoops(rounds(a, b, a, b), 0, thresholds).find((f) => f.evidence.detector === 'cycle');
    expect(ab).toMatchObject({ level: 'stop', evidence: { period: 2, rounds: [1, 2, 3, 4] } });
    const c = call('c', '1', 'z');
    const abc = detectLoops(rounds(a, b, c, a, b, c), 0, thresholds).find(
      (f) => f.evidence.detector === 'cycle',
    );
    expect(abc?.evidence.period).toBe(3);
    expect(
      detectLoops(rounds(a, b, c, a, b, c), 0, { ...thresholds, maxCyclePeriod: 0 }).some(
        (f) => f.evidence.detector === 'cycle',
      ),
    ).toBe(false);
  });

  it('compares whole rounds for a cycle: calls, results and their order', () => {
    const a = call('a', '1', 'x');
    const b = call('b', '1', 'y');
    const c = call('c', '1', 'z');
    const multi = (...calls: Array<ReturnType<typeof call>>[]): GuardWindow =>
      windowOf(calls.map((round, i) => ({ round: i + 1, calls: round })));
    const cycleIn = (window: GuardWindow) =>
      detectLoops(window, 0, thresholds).some((f) => f.evidence.detector === 'cycle');
    expect(cycleIn(multi([a, b], [c], [a, b], [c]))).toBe(true);
    expect(cycleIn(multi([a, b], [c], [b, a], [c]))).toBe(false);
    expect(cycleIn(multi([a, b], [c], [a], [c]))).toBe(false);
    expect(cycleIn(multi([a], [c], [{ ...a, result: b.result }], [c]))).toBe(false);
    expect(cycleIn(multi([], [c], [], [c]))).toBe(false);
  });

  it('shows fingerprints in evidence as text: tool#digest for the call, the digest for the result', () => {
    const same = call('q', 'a', 'r');
    const [finding] = detectLoops(rounds(same, same), 0, thresholds);
    expect(finding?.evidence.fingerprints).toEqual([
      { call: `q#${hashText(same.call)}`, result: hashText(same.result) },
    ]);
    expect(finding?.evidence.toolNames).toEqual(['q']);
  });

  it('does not take distinct steps for a cycle', () => {
    const window = rounds(...Array.from({ length: 12 }, (_, i) => call(`step${i}`, `${i}`, `r${i}`)));
    expect(detectLoops(window, 0, thresholds)).toEqual([]);
  });

  it('neither warns about nor stops a transient failure until it has repeated transientRepeatLimit times', () => {
    const down = { ...call('rate', '1', 'unavailable'), transient: true as const };
    for (let n = 1; n < 5; n++)
      expect(detectLoops(rounds(...Array(n).fill(down)), 0, thresholds)).toEqual([]);
    expect(detectLoops(rounds(...Array(5).fill(down)), 0, thresholds)[0]).toMatchObject({
      level: 'stop',
      evidence: { detector: 'still-unavailable', occurrences: 5 },
    });
    expect(
      detectLoops(rounds(...Array(9).fill(down)), 0, { ...thresholds, transientRepeatLimit: 0 }),
    ).toEqual([]);
  });

  it('stops after K rounds without a new result', () => {
    const current = rounds(call('x', '1', 'r'));
    expect(detectLoops(current, 3, thresholds)[0]).toMatchObject({
      level: 'warn',
      evidence: { detector: 'no-progress' },
    });
    expect(detectLoops(current, 4, thresholds)[0]).toMatchObject({
      level: 'stop',
      evidence: { detector: 'no-progress', occurrences: 4 },
    });
  });
});
