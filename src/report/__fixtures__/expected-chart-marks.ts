import type { AuditReport } from '../audit-report.js';
import { type ChartName, LATENCY_SERIES } from '../report-charts.js';

/** A mark (bar, point) or a marker line as the page must carry it: label, series and exact figure. */
export interface ExpectedMark {
  readonly label: string;
  readonly series?: string;
  readonly value: number;
}

/** The marks each chart must draw, in order, read straight from the report (not from the renderer). */
export function expectedMarks(report: AuditReport): Record<ChartName, readonly ExpectedMark[]> {
  return {
    rounds: report.rounds.histogram.map((bucket) => ({ label: String(bucket.rounds), value: bucket.runs })),
    'repeat-rate': report.repeats.overTime.map((period) => ({ label: period.period, value: period.rate })),
    stops: report.stops.byReason.map((stop) => ({ label: stop.reason, value: stop.runs })),
    latency: report.tools.flatMap((tool) =>
      tool.latencyMs.p50 === null
        ? []
        : LATENCY_SERIES.map((series) => ({ label: tool.tool, series, value: tool.latencyMs[series] ?? 0 })),
    ),
    errors: report.errors.byClass.map((entry) => ({ label: entry.errorClass, value: entry.calls })),
  };
}

/** The reference lines: P95, the recommended and the configured ceilings; the overall repeat rate. */
export function expectedMarkers(
  report: AuditReport,
): Record<'rounds' | 'repeat-rate', readonly ExpectedMark[]> {
  const { rounds } = report;
  return {
    rounds: [
      ...(rounds.p95 === null ? [] : [{ label: 'P95', value: rounds.p95 }]),
      ...(rounds.recommendedCeiling === null
        ? []
        : [{ label: 'recommended ceiling', value: rounds.recommendedCeiling }]),
      ...rounds.configuredCeilings.map((ceiling) => ({
        label: 'configured ceiling',
        value: ceiling.maxRoundTrips,
      })),
    ],
    'repeat-rate':
      report.repeats.overTime.length === 0 ? [] : [{ label: 'overall', value: report.repeats.rate }],
  };
}

export const CHART_NAMES: readonly ChartName[] = ['rounds', 'repeat-rate', 'stops', 'latency', 'errors'];
