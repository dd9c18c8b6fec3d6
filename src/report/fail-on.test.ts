import { describe, expect, it } from 'vitest';
import { evaluateFailOn, parseFailOn } from './fail-on.js';
import { ReportBuilder } from './report-builder.js';

function report() {
  const builder = new ReportBuilder('audit.jsonl');
  const base = {
    kind: 'call' as const,
    at: '2026-12-01T12:00:00.000Z',
    runId: 'r',
    toolName: 't',
    outcome: 'success' as const,
    code: undefined,
    durationMs: 1,
    ran: true,
    replay: false,
    approval: undefined,
    contractViolation: false,
  };
  // 10 calls of one run, 1 a repeat; the run took 4 rounds.
  for (let i = 0; i < 9; i++) builder.add({ ...base, digest: String(i) });
  builder.add({ ...base, digest: '0' });
  builder.add({
    kind: 'run',
    at: base.at,
    runId: 'r',
    outcome: 'completed',
    stopReason: undefined,
    roundTrips: 4,
    maxRoundTrips: 10,
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
  });
  return builder.finish();
}

describe('--fail-on', () => {
  it('parses conditions, repeated or comma-separated, with spaces and any case', () => {
    expect(parseFailOn(['repeat-rate>0.05', ' rounds-p95 >= 9 ,Error-Rate<=.5', 'skipped==0'])).toEqual([
      { text: 'repeat-rate>0.05', metric: 'repeat-rate', operator: '>', threshold: 0.05 },
      { text: 'rounds-p95 >= 9', metric: 'rounds-p95', operator: '>=', threshold: 9 },
      { text: 'Error-Rate<=.5', metric: 'error-rate', operator: '<=', threshold: 0.5 },
      { text: 'skipped==0', metric: 'skipped', operator: '==', threshold: 0 },
    ]);
  });

  it.each([
    ['an unknown metric', 'repeats>1'],
    ['no operator', 'repeat-rate 0.05'],
    ['no number', 'repeat-rate>'],
    ['a number with a unit', 'repeat-rate>5%'],
    ['a single =', 'skipped=0'],
    ['an empty condition', ''],
    ['an inherited key', 'constructor>0'],
    ['a huge text', `repeat-rate>${'9'.repeat(300)}`],
  ])('refuses %s with the list of metrics', (_, text) => {
    expect(() => parseFailOn([text])).toThrow(/repeat-rate|at most 200/);
  });

  it('is met when the figure crosses the threshold, and not met with no figure', () => {
    const results = evaluateFailOn(report(), parseFailOn(['repeat-rate>0.05,repeat-rate>0.1,rounds-p95==4']));
    expect(results.map((result) => [result.value, result.met])).toEqual([
      [0.1, true],
      [0.1, false],
      [4, true],
    ]);
    const empty = new ReportBuilder('empty').finish();
    expect(evaluateFailOn(empty, parseFailOn(['rounds-p95>0']))).toMatchObject([{ value: null, met: false }]);
    // No finished run, no stop rate: a log of calls only never meets a stop-rate condition.
    expect(evaluateFailOn(empty, parseFailOn(['stop-rate<0.5']))).toMatchObject([
      { value: null, met: false },
    ]);
  });
});
