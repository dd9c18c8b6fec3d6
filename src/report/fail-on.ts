import type { AuditReport } from './audit-report.js';

/** The figures `--fail-on` can test. */
export type FailOnMetric =
  | 'repeat-rate'
  | 'error-rate'
  | 'stop-rate'
  | 'rounds-p50'
  | 'rounds-p95'
  | 'rounds-p99'
  | 'rounds-max'
  | 'at-ceiling'
  | 'contract-violations'
  | 'limit-hits'
  | 'loop-refusals'
  | 'denied'
  | 'skipped';

/** Where each figure comes from in the report. */
const METRICS: Readonly<Record<FailOnMetric, (report: AuditReport) => number | null>> = {
  'repeat-rate': (report) => report.repeats.rate,
  'error-rate': (report) => report.errors.rate,
  'stop-rate': (report) => (report.rounds.runs === 0 ? null : report.stops.rate),
  'rounds-p50': (report) => report.rounds.p50,
  'rounds-p95': (report) => report.rounds.p95,
  'rounds-p99': (report) => report.rounds.p99,
  'rounds-max': (report) => report.rounds.max,
  'at-ceiling': (report) => report.rounds.atCeiling,
  'contract-violations': (report) => sum(report.tools.map((tool) => tool.contractViolations)),
  'limit-hits': (report) => sum(report.limitHits.map((row) => row.count)),
  'loop-refusals': (report) => sum(report.loopRefusals.map((row) => row.count)),
  denied: (report) => report.approvals.denied,
  skipped: (report) => report.records.skipped,
};
export type FailOnOperator = '>' | '>=' | '<' | '<=' | '==';

/** One `--fail-on` condition: `repeat-rate>0.05`. */
export interface FailOnCondition {
  readonly text: string;
  readonly metric: FailOnMetric;
  readonly operator: FailOnOperator;
  readonly threshold: number;
}

/** A condition against a report: met (the command fails), or the figure is absent (no finished run). */
export interface FailOnResult {
  readonly condition: FailOnCondition;
  readonly value: number | null;
  readonly met: boolean;
}

export const FAIL_ON_METRICS = Object.keys(METRICS) as readonly FailOnMetric[];

const CONDITION = /^\s*([a-z][a-z0-9-]*)\s*(>=|<=|==|>|<)\s*(-?(?:\d+(?:\.\d+)?|\.\d+)(?:e-?\d+)?)\s*$/i;

/**
 * Parses `--fail-on` values (each may hold several conditions, comma-separated). Throws `TypeError` with
 * the metrics it knows when one is malformed: a cron job must not pass because of a typo.
 */
export function parseFailOn(values: readonly string[]): FailOnCondition[] {
  const conditions: FailOnCondition[] = [];
  for (const value of values) {
    for (const text of value.split(',')) {
      if (text.length > 200) throw new TypeError('a --fail-on condition is at most 200 characters');
      const match = CONDITION.exec(text);
      const metric = match?.[1]?.toLowerCase();
      if (match === null || metric === undefined || !Object.hasOwn(METRICS, metric)) {
        throw new TypeError(
          `cannot read --fail-on '${text.trim()}': write <metric><op><number>, e.g. 'repeat-rate>0.05'; metrics: ${FAIL_ON_METRICS.join(', ')}; ops: > >= < <= ==`,
        );
      }
      conditions.push({
        text: text.trim(),
        metric: metric as FailOnMetric,
        operator: match[2] as FailOnOperator,
        threshold: Number(match[3]),
      });
    }
  }
  return conditions;
}

export function evaluateFailOn(report: AuditReport, conditions: readonly FailOnCondition[]): FailOnResult[] {
  return conditions.map((condition) => {
    const value = METRICS[condition.metric](report);
    return {
      condition,
      value,
      met: value !== null && compare(value, condition.operator, condition.threshold),
    };
  });
}

function compare(value: number, operator: FailOnOperator, threshold: number): boolean {
  switch (operator) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '==':
      return value === threshold;
    default: {
      const unreachable: never = operator;
      throw new TypeError(`unknown operator ${String(unreachable)}`);
    }
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
