import {
  DEFAULT_REPORT_MAX_OPEN_RUNS,
  DEFAULT_REPORT_MAX_TOOLS,
  MIN_RUNS_FOR_CEILING,
  REPORT_CEILING_MARGIN,
} from '../core/defaults.js';
import type { ErrorClass } from '../core/error-class.js';
import {
  type AuditReport,
  REPORT_SCHEMA_VERSION,
  type RepeatsReport,
  type RoundsReport,
  type ToolReport,
} from './audit-report.js';
import { LatencySketch } from './latency-sketch.js';
import { ProxyScreenTally } from './proxy-screen-tally.js';
import { compareText, mostFirst, ratio, round3, shownName, topBy } from './report-figures.js';
import type { ReportCall, ReportInput, ReportRun } from './report-input.js';

/** The name the tools beyond `DEFAULT_REPORT_MAX_TOOLS` are counted under. */
export const OTHER_TOOLS = '(other tools)';
const MAX_SKIPPED_SHOWN = 10;
/** Over time by hour while the log spans at most this many days, else by day. */
const HOURLY_UP_TO_DAYS = 2;

interface ToolTally {
  calls: number;
  errors: number;
  repeats: number;
  contractViolations: number;
  limitHits: number;
  loopRefusals: number;
  replays: number;
  /** The durations of the calls that ran (a refused or replayed call took no time of the tool's). */
  readonly latency: LatencySketch;
}

/**
 * Adds up an audit log one record at a time, in memory bounded by the number of tools, hours and runs
 * still open (not by the number of records), and gives the report at the end.
 */
export class ReportBuilder {
  private calls = 0;
  private runRecords = 0;
  private skipped = 0;
  private readonly firstSkipped: number[] = [];
  private from: string | undefined;
  private to: string | undefined;
  private readonly rounds = new Map<number, number>();
  private readonly ceilings = new Map<number, number>();
  private interrupted = 0;
  private atCeiling = 0;
  private readonly stops = new Map<string, number>();
  /** Digests of the calls of each run not yet ended, oldest run first. */
  private readonly openRuns = new Map<string, Set<string>>();
  private runCalls = 0;
  private repeated = 0;
  private readonly hours = new Map<string, { calls: number; repeated: number }>();
  private readonly tools = new Map<string, ToolTally>();
  private readonly classes = new Map<ErrorClass, number>();
  private readonly codes = new Map<string, number>();
  private readonly approvals = { approved: 0, refused: 0, unconfirmed: 0, denied: 0, replays: 0 };
  private readonly usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  private readonly screen = new ProxyScreenTally();

  constructor(private readonly source: string) {}

  /** A line (or row) that is not a record: counted, its position kept for the first few. */
  countUnreadable(position: number): void {
    this.skipped++;
    if (this.firstSkipped.length < MAX_SKIPPED_SHOWN) this.firstSkipped.push(position);
  }

  add(input: ReportInput): void {
    if (this.from === undefined || input.at < this.from) this.from = input.at;
    if (this.to === undefined || input.at > this.to) this.to = input.at;
    switch (input.kind) {
      case 'call':
        this.addCall(input);
        this.screen.addCall(input);
        return;
      case 'run':
        this.addRun(input);
        return;
      case 'tool-definition':
        this.screen.addChange(input);
        return;
      default: {
        const never: never = input;
        throw new TypeError(`unknown record ${String(never)}`);
      }
    }
  }

  private addCall(call: ReportCall): void {
    this.calls++;
    const tally = this.tallyOf(call.toolName);
    tally.calls++;
    if (call.ran) tally.latency.add(call.durationMs);
    if (call.outcome !== 'success') {
      tally.errors++;
      this.classes.set(call.outcome, (this.classes.get(call.outcome) ?? 0) + 1);
      if (call.code !== undefined) this.codes.set(call.code, (this.codes.get(call.code) ?? 0) + 1);
    }
    if (call.contractViolation) tally.contractViolations++;
    if (call.code === 'TOOL_CALL_LIMIT') tally.limitHits++;
    if (call.code === 'LOOP_DETECTED') tally.loopRefusals++;
    if (call.replay) {
      tally.replays++;
      this.approvals.replays++;
    }
    this.countDecision(call);
    if (call.runId !== undefined && call.digest !== undefined) this.countRepeat(call, tally);
  }

  /** Who let the call run or refused it: a person, the proxy's config unasked, or a policy (by its code). */
  private countDecision(call: ReportCall): void {
    switch (call.approval) {
      case 'approved':
        this.approvals.approved++;
        return;
      case 'denied':
        this.approvals.refused++;
        return;
      case 'unconfirmed':
        this.approvals.unconfirmed++;
        return;
      case undefined:
        // Limit and loop refusals are counted by their codes (limitHits, loopRefusals), not as denials.
        if (call.outcome === 'denied' && call.code !== 'TOOL_CALL_LIMIT' && call.code !== 'LOOP_DETECTED') {
          this.approvals.denied++;
        }
        return;
      default: {
        const unreachable: never = call.approval;
        throw new TypeError(`unknown approval ${String(unreachable)}`);
      }
    }
  }

  /** A call repeats when an earlier call of its run had the same tool and arguments (the same digest). */
  private countRepeat(call: ReportCall, tally: ToolTally): void {
    const runId = call.runId as string;
    let seen = this.openRuns.get(runId);
    if (seen === undefined) {
      if (this.openRuns.size >= DEFAULT_REPORT_MAX_OPEN_RUNS) {
        const oldest = this.openRuns.keys().next().value;
        if (oldest !== undefined) this.openRuns.delete(oldest);
      }
      seen = new Set();
      this.openRuns.set(runId, seen);
    }
    const repeat = seen.has(call.digest as string);
    seen.add(call.digest as string);
    const hour = call.at.slice(0, 13);
    const bucket = this.hours.get(hour) ?? { calls: 0, repeated: 0 };
    this.hours.set(hour, bucket);
    this.runCalls++;
    bucket.calls++;
    if (repeat) {
      this.repeated++;
      bucket.repeated++;
      tally.repeats++;
    }
  }

  private addRun(run: ReportRun): void {
    this.runRecords++;
    if (run.outcome === 'interrupted') {
      this.interrupted++;
      return;
    }
    // A finished run: its calls are all in, and its totals cover its resumed parts too.
    this.openRuns.delete(run.runId);
    this.rounds.set(run.roundTrips, (this.rounds.get(run.roundTrips) ?? 0) + 1);
    if (run.maxRoundTrips !== undefined) {
      this.ceilings.set(run.maxRoundTrips, (this.ceilings.get(run.maxRoundTrips) ?? 0) + 1);
    }
    if (run.outcome === 'stopped') {
      const reason = run.stopReason ?? 'unknown';
      this.stops.set(reason, (this.stops.get(reason) ?? 0) + 1);
      if (reason === 'MAX_ROUND_TRIPS') this.atCeiling++;
    }
    this.usage.inputTokens += run.inputTokens;
    this.usage.outputTokens += run.outputTokens;
    this.usage.totalTokens += run.totalTokens;
  }

  private tallyOf(toolName: string): ToolTally {
    const name = shownName(toolName);
    const key = this.tools.has(name) || this.tools.size < DEFAULT_REPORT_MAX_TOOLS ? name : OTHER_TOOLS;
    let tally = this.tools.get(key);
    if (tally === undefined) {
      tally = {
        calls: 0,
        errors: 0,
        repeats: 0,
        contractViolations: 0,
        limitHits: 0,
        loopRefusals: 0,
        replays: 0,
        latency: new LatencySketch(),
      };
      this.tools.set(key, tally);
    }
    return tally;
  }

  finish(): AuditReport {
    const tools = [...this.tools].map(([tool, tally]) => toolReport(tool, tally));
    tools.sort((a, b) => b.calls - a.calls || compareText(a.tool, b.tool));
    const finished = [...this.rounds.values()].reduce((sum, runs) => sum + runs, 0);
    const stopped = [...this.stops.values()].reduce((sum, runs) => sum + runs, 0);
    return {
      schemaVersion: REPORT_SCHEMA_VERSION,
      source: this.source,
      records: {
        calls: this.calls,
        runs: this.runRecords,
        skipped: this.skipped,
        firstSkipped: [...this.firstSkipped],
        ...(this.from === undefined ? {} : { from: this.from }),
        ...(this.to === undefined ? {} : { to: this.to }),
      },
      rounds: this.roundsReport(finished),
      repeats: this.repeatsReport(),
      tools,
      top: {
        byRepeats: topBy(tools, (tool) => tool.repeats),
        byContractViolations: topBy(tools, (tool) => tool.contractViolations),
        byErrors: topBy(tools, (tool) => tool.errors),
      },
      stops: {
        rate: ratio(stopped, finished),
        byReason: mostFirst(this.stops).map(([reason, runs]) => ({ reason, runs })),
      },
      limitHits: topBy(tools, (tool) => tool.limitHits, Number.POSITIVE_INFINITY),
      loopRefusals: topBy(tools, (tool) => tool.loopRefusals, Number.POSITIVE_INFINITY),
      errors: {
        rate: ratio(
          [...this.classes.values()].reduce((sum, calls) => sum + calls, 0),
          this.calls,
        ),
        byClass: mostFirst(this.classes).map(([errorClass, calls]) => ({ errorClass, calls })),
        byCode: mostFirst(this.codes).map(([code, calls]) => ({ code, calls })),
      },
      approvals: { ...this.approvals },
      usage: { ...this.usage },
      proxy: this.screen.report(),
    };
  }

  private roundsReport(finished: number): RoundsReport {
    const histogram = [...this.rounds].sort(([a], [b]) => a - b).map(([rounds, runs]) => ({ rounds, runs }));
    const percentile = (p: number): number | null => {
      const rank = Math.max(1, Math.ceil(p * finished));
      let seen = 0;
      for (const bar of histogram) {
        seen += bar.runs;
        if (seen >= rank) return bar.rounds;
      }
      return null;
    };
    const p95 = percentile(0.95);
    return {
      runs: finished,
      interrupted: this.interrupted,
      histogram,
      p50: percentile(0.5),
      p95,
      p99: percentile(0.99),
      max: histogram.at(-1)?.rounds ?? null,
      recommendedCeiling:
        p95 === null || finished < MIN_RUNS_FOR_CEILING ? null : p95 + REPORT_CEILING_MARGIN,
      minRunsForCeiling: MIN_RUNS_FOR_CEILING,
      configuredCeilings: mostFirst(this.ceilings).map(([maxRoundTrips, runs]) => ({ maxRoundTrips, runs })),
      atCeiling: this.atCeiling,
    };
  }

  private repeatsReport(): RepeatsReport {
    const hours = [...this.hours].sort(([a], [b]) => compareText(a, b));
    const first = hours[0]?.[0];
    const last = hours.at(-1)?.[0];
    const days =
      first === undefined || last === undefined
        ? 0
        : (Date.parse(`${last}:00:00Z`) - Date.parse(`${first}:00:00Z`)) / 86_400_000;
    const granularity = days > HOURLY_UP_TO_DAYS ? 'day' : 'hour';
    const periods = new Map<string, { calls: number; repeated: number }>();
    for (const [hour, bucket] of hours) {
      const period = granularity === 'day' ? hour.slice(0, 10) : hour;
      const sum = periods.get(period) ?? { calls: 0, repeated: 0 };
      sum.calls += bucket.calls;
      sum.repeated += bucket.repeated;
      periods.set(period, sum);
    }
    return {
      calls: this.runCalls,
      repeated: this.repeated,
      rate: ratio(this.repeated, this.runCalls),
      granularity,
      overTime: [...periods].map(([period, sum]) => ({
        period,
        calls: sum.calls,
        repeated: sum.repeated,
        rate: ratio(sum.repeated, sum.calls),
      })),
    };
  }
}

function toolReport(tool: string, tally: ToolTally): ToolReport {
  const { latency } = tally;
  return {
    tool,
    calls: tally.calls,
    errors: tally.errors,
    repeats: tally.repeats,
    contractViolations: tally.contractViolations,
    limitHits: tally.limitHits,
    loopRefusals: tally.loopRefusals,
    replays: tally.replays,
    ran: latency.size,
    latencyMs:
      latency.size === 0
        ? { p50: null, p95: null, p99: null, max: null }
        : {
            p50: round3(latency.percentile(0.5)),
            p95: round3(latency.percentile(0.95)),
            p99: round3(latency.percentile(0.99)),
            max: round3(latency.max),
          },
  };
}
