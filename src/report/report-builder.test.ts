import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REPORT_MAX_OPEN_RUNS,
  DEFAULT_REPORT_MAX_TOOLS,
  MIN_RUNS_FOR_CEILING,
} from '../core/defaults.js';
import { OTHER_TOOLS, ReportBuilder } from './report-builder.js';
import type { ReportCall, ReportRun } from './report-input.js';

const AT = '2026-12-01T12:00:00.000Z';

function call(
  runId: string | undefined,
  toolName: string,
  digest: string,
  more: Partial<ReportCall> = {},
): ReportCall {
  return {
    kind: 'call',
    at: AT,
    runId,
    toolName,
    digest,
    outcome: 'success',
    code: undefined,
    durationMs: 10,
    ran: true,
    replay: false,
    approval: undefined,
    contractViolation: false,
    ...more,
  };
}

function run(runId: string, roundTrips: number, more: Partial<ReportRun> = {}): ReportRun {
  return {
    kind: 'run',
    at: AT,
    runId,
    outcome: 'completed',
    stopReason: undefined,
    roundTrips,
    maxRoundTrips: 20,
    inputTokens: 1,
    outputTokens: 2,
    totalTokens: 3,
    ...more,
  };
}

function build(inputs: readonly (ReportCall | ReportRun)[]) {
  const builder = new ReportBuilder('audit.jsonl');
  for (const input of inputs) builder.add(input);
  return builder.finish();
}

describe('ReportBuilder', () => {
  it('gives the rounds distribution, nearest-rank percentiles and the ceiling P95 + 2', () => {
    // 100 runs: 1..100 rounds once each.
    const report = build(Array.from({ length: 100 }, (_, i) => run(`r${i}`, i + 1)));
    expect(report.rounds).toMatchObject({
      runs: 100,
      p50: 50,
      p95: 95,
      p99: 99,
      max: 100,
      recommendedCeiling: 97,
    });
    expect(report.rounds.histogram).toHaveLength(100);
    expect(report.rounds.configuredCeilings).toEqual([{ maxRoundTrips: 20, runs: 100 }]);
  });

  it(`withholds the ceiling below ${MIN_RUNS_FOR_CEILING} finished runs (too few for a P95), and gives it from there`, () => {
    const runs = (count: number) => build(Array.from({ length: count }, (_, i) => run(`r${i}`, 3)));
    expect(runs(MIN_RUNS_FOR_CEILING - 1).rounds).toMatchObject({
      runs: MIN_RUNS_FOR_CEILING - 1,
      p95: 3,
      recommendedCeiling: null,
      minRunsForCeiling: MIN_RUNS_FOR_CEILING,
    });
    expect(runs(MIN_RUNS_FOR_CEILING).rounds).toMatchObject({ recommendedCeiling: 5 });
  });

  it('counts a paused run once, when it ends, and its tokens once (the run record totals its parts)', () => {
    const report = build([
      run('r1', 2, { outcome: 'interrupted', totalTokens: 3 }),
      run('r1', 5, { totalTokens: 9 }),
      run('r2', 3, { outcome: 'stopped', stopReason: 'MAX_ROUND_TRIPS', totalTokens: 1 }),
    ]);
    expect(report.rounds).toMatchObject({ runs: 2, interrupted: 1, atCeiling: 1 });
    expect(report.rounds.histogram).toEqual([
      { rounds: 3, runs: 1 },
      { rounds: 5, runs: 1 },
    ]);
    expect(report.usage.totalTokens).toBe(10);
    expect(report.stops).toEqual({ rate: 0.5, byReason: [{ reason: 'MAX_ROUND_TRIPS', runs: 1 }] });
    expect(report.records).toMatchObject({ runs: 3, calls: 0 });
  });

  it('counts a repeat when an earlier call of the same run had the same digest, across a pause', () => {
    const report = build([
      call('r1', 'getPrice', 'a'),
      call('r1', 'getPrice', 'a'),
      call('r1', 'getPrice', 'b'),
      call('r2', 'getPrice', 'a'),
      run('r1', 3, { outcome: 'interrupted' }),
      call('r1', 'getPrice', 'b'),
      run('r1', 4),
      // r1 ended: a new run with the same id starts from nothing.
      call('r1', 'getPrice', 'a'),
      call(undefined, 'getPrice', 'a'),
    ]);
    expect(report.repeats).toMatchObject({ calls: 6, repeated: 2, rate: 2 / 6 });
    expect(report.tools[0]).toMatchObject({ tool: 'getPrice', calls: 7, repeats: 2 });
    expect(report.top.byRepeats).toEqual([{ tool: 'getPrice', count: 2 }]);
  });

  it('tells tools apart by errors, contract violations, limit hits, replays; classes and codes, most first', () => {
    const report = build([
      call('r', 'a', '1', { outcome: 'transient', code: 'TOOL_UNAVAILABLE' }),
      call('r', 'a', '2', { outcome: 'transient', code: 'TOOL_UNAVAILABLE' }),
      call('r', 'b', '3', { outcome: 'invalid-input', code: 'CONTRACT_VIOLATION', contractViolation: true }),
      call('r', 'b', '4', { contractViolation: true }),
      call('r', 'c', '5', { outcome: 'invalid-input', code: 'TOOL_CALL_LIMIT' }),
      call('r', 'c', '6', { replay: true }),
      call('r', 'd', '7', { outcome: 'denied', code: 'PERMISSION_DENIED' }),
      call('r', 'd', '8', { outcome: 'denied', code: 'APPROVAL_REFUSED', approval: 'denied' }),
      call('r', 'd', '9', { approval: 'approved' }),
    ]);
    expect(report.top.byErrors).toEqual([
      { tool: 'a', count: 2 },
      { tool: 'd', count: 2 },
      { tool: 'b', count: 1 },
      { tool: 'c', count: 1 },
    ]);
    expect(report.top.byContractViolations).toEqual([{ tool: 'b', count: 2 }]);
    expect(report.limitHits).toEqual([{ tool: 'c', count: 1 }]);
    expect(report.errors.rate).toBeCloseTo(6 / 9);
    expect(report.errors.byClass).toEqual([
      { errorClass: 'denied', calls: 2 },
      { errorClass: 'invalid-input', calls: 2 },
      { errorClass: 'transient', calls: 2 },
    ]);
    expect(report.errors.byCode[0]).toEqual({ code: 'TOOL_UNAVAILABLE', calls: 2 });
    expect(report.approvals).toEqual({ approved: 1, refused: 1, unconfirmed: 0, denied: 1, replays: 1 });
  });

  it("classifies the MCP proxy's refusals by their codes: a limit or loop refusal is not a denial", () => {
    const refused = { outcome: 'denied' as const, ran: false, durationMs: 0 };
    const report = build([
      call('s', 'search', '1', { ...refused, code: 'TOOL_CALL_LIMIT' }),
      call('s', 'open', '2', { ...refused, code: 'LOOP_DETECTED' }),
      call('s', 'open', '3', { ...refused, code: 'LOOP_DETECTED' }),
      call('s', 'delete', '4', { ...refused, code: 'PERMISSION_DENIED' }),
      call('s', 'delete', '5', { ...refused, code: 'PERMISSION_DENIED', approval: 'denied' }),
      call('s', 'delete', '6', { approval: 'approved' }),
      call('s', 'delete', '7', { approval: 'unconfirmed' }),
    ]);
    expect(report.approvals).toEqual({ approved: 1, refused: 1, unconfirmed: 1, denied: 1, replays: 0 });
    expect(report.limitHits).toEqual([{ tool: 'search', count: 1 }]);
    expect(report.loopRefusals).toEqual([{ tool: 'open', count: 2 }]);
    expect(report.tools.find((tool) => tool.tool === 'open')).toMatchObject({ loopRefusals: 2, errors: 2 });
    expect(report.errors.byCode).toContainEqual({ code: 'LOOP_DETECTED', calls: 2 });
  });

  it('takes latency from the calls that ran only: a refused call (0 ms) is none; a tool none of whose calls ran has none', () => {
    const report = build([
      call('r', 't', '1', { durationMs: 40 }),
      call('r', 't', '2', { durationMs: 0, ran: false, outcome: 'denied', code: 'TOOL_CALL_LIMIT' }),
      call('r', 't', '3', { durationMs: 0, ran: false, outcome: 'denied', code: 'TOOL_CALL_LIMIT' }),
      call('r', 'refused', '4', { durationMs: 0, ran: false, outcome: 'denied', code: 'PERMISSION_DENIED' }),
    ]);
    const byName = (name: string) => report.tools.find((tool) => tool.tool === name);
    expect(byName('t')).toMatchObject({ calls: 3, ran: 1 });
    expect(byName('t')?.latencyMs.p50).toBeCloseTo(40, 0);
    expect(byName('refused')).toMatchObject({
      ran: 0,
      latencyMs: { p50: null, p95: null, p99: null, max: null },
    });
  });

  it('gives tool latency percentiles', () => {
    const report = build(
      Array.from({ length: 100 }, (_, i) => call('r', 't', String(i), { durationMs: i + 1 })),
    );
    const { latencyMs } = report.tools[0] ?? { latencyMs: undefined };
    expect(latencyMs?.max).toBe(100);
    expect(Math.abs((latencyMs?.p95 ?? 0) - 95) / 95).toBeLessThanOrEqual(0.01);
  });

  it('keeps one row per tool up to the bound, the rest as one row, and cuts a long name', () => {
    const inputs = Array.from({ length: DEFAULT_REPORT_MAX_TOOLS + 5 }, (_, i) =>
      call('r', `tool${i}`, String(i)),
    );
    const report = build([...inputs, call('r', 'x'.repeat(5_000), 'long')]);
    expect(report.tools).toHaveLength(DEFAULT_REPORT_MAX_TOOLS + 1);
    expect(report.tools.find((tool) => tool.tool === OTHER_TOOLS)?.calls).toBe(6);
    const long = build([call('r', 'x'.repeat(5_000), 'long')]).tools[0]?.tool ?? '';
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith('…')).toBe(true);
  });

  it('forgets the oldest run that never ended beyond the bound (memory does not grow with such runs)', () => {
    const open = Array.from({ length: DEFAULT_REPORT_MAX_OPEN_RUNS + 1 }, (_, i) =>
      call(`r${i}`, 't', 'same'),
    );
    // r0 was forgotten: its repeat is not seen; r1 is still remembered.
    const report = build([...open, call('r0', 't', 'same'), call('r2', 't', 'same')]);
    expect(report.repeats.repeated).toBe(1);
  });

  it('reports the hit rate by hour over two days at most, by day beyond', () => {
    const at = (iso: string) => ({ at: iso });
    const hourly = build([
      call('r', 't', 'a', at('2026-12-01T10:05:00Z')),
      call('r', 't', 'a', at('2026-12-01T11:05:00Z')),
      call('r', 't', 'a', at('2026-12-01T11:35:00Z')),
    ]);
    expect(hourly.repeats.granularity).toBe('hour');
    expect(hourly.repeats.overTime).toEqual([
      { period: '2026-12-01T10', calls: 1, repeated: 0, rate: 0 },
      { period: '2026-12-01T11', calls: 2, repeated: 2, rate: 1 },
    ]);
    const daily = build([
      call('r', 't', 'a', at('2026-12-01T10:05:00Z')),
      call('r', 't', 'a', at('2026-12-05T10:05:00Z')),
    ]);
    expect(daily.repeats.granularity).toBe('day');
    expect(daily.repeats.overTime.map((period) => period.period)).toEqual(['2026-12-01', '2026-12-05']);
    expect(daily.records).toMatchObject({ from: '2026-12-01T10:05:00Z', to: '2026-12-05T10:05:00Z' });
  });

  it('an empty log gives zeros and nulls, never NaN', () => {
    const builder = new ReportBuilder('empty.jsonl');
    builder.countUnreadable(3);
    const report = builder.finish();
    expect(report.rounds).toMatchObject({
      runs: 0,
      p50: null,
      p95: null,
      recommendedCeiling: null,
      max: null,
    });
    expect(report.repeats.rate).toBe(0);
    expect(report.errors.rate).toBe(0);
    expect(report.stops.rate).toBe(0);
    expect(report.records).toEqual({ calls: 0, runs: 0, skipped: 1, firstSkipped: [3] });
    expect(JSON.stringify(report)).not.toMatch(/NaN|Infinity/);
  });
});
