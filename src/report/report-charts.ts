import type { AuditReport } from './audit-report.js';
import { escapeHtml } from './html-escape.js';
import { barListSvg } from './svg-bar-list.js';
import { type HistogramMarker, histogramSvg } from './svg-histogram.js';
import { lineChartSvg } from './svg-line-chart.js';
import { formatNumber, formatRate } from './svg-parts.js';

/** The charts of the page, by their `data-chart` name. */
export type ChartName = 'rounds' | 'repeat-rate' | 'stops' | 'latency' | 'errors';

/** The latency series, in the order each tool's bars are drawn. */
export const LATENCY_SERIES = ['p50', 'p95', 'p99'] as const;

const BLUE = '#4c78a8';
const SERIES_COLORS = [BLUE, '#f58518', '#e45756'];

/**
 * The figures, each a `<figure data-chart>`: a chart, or a sentence saying why there is nothing to draw.
 * A log without run records (an MCP proxy's) has no rounds or stops figure at all: the page says why once.
 */
export function renderCharts(report: AuditReport): string {
  const runs = report.records.runs > 0;
  return [
    ...(runs ? [roundsFigure(report)] : []),
    repeatRateFigure(report),
    ...(runs ? [stopsFigure(report)] : []),
    latencyFigure(report),
    errorsFigure(report),
  ].join('\n');
}

/** Why a figure about finished runs is empty although the log has run records. */
function noFinishedRun(report: AuditReport): string {
  const paused = report.rounds.interrupted;
  return `No finished runs yet${paused > 0 ? `: ${formatNumber(paused)} run parts paused for an approval` : ''}.`;
}

function figure(name: ChartName, caption: string, body: string | undefined, empty: string): string {
  const content = body ?? `<p class="empty">${escapeHtml(empty)}</p>`;
  return `<figure data-chart="${name}"><figcaption>${escapeHtml(caption)}</figcaption>${content}</figure>`;
}

function roundsFigure(report: AuditReport): string {
  const { rounds } = report;
  const markers: HistogramMarker[] = [];
  if (rounds.p95 !== null) markers.push({ label: 'P95', value: rounds.p95, color: '#e45756' });
  if (rounds.recommendedCeiling !== null) {
    markers.push({ label: 'recommended ceiling', value: rounds.recommendedCeiling, color: '#2e8b3a' });
  }
  for (const ceiling of rounds.configuredCeilings) {
    markers.push({ label: 'configured ceiling', value: ceiling.maxRoundTrips, color: '#7b4fa0' });
  }
  const bars = rounds.histogram.map((bucket) => ({
    x: bucket.rounds,
    label: String(bucket.rounds),
    value: bucket.runs,
    title: `${formatNumber(bucket.rounds)} rounds: ${formatNumber(bucket.runs)} runs`,
  }));
  const body =
    bars.length === 0
      ? undefined
      : histogramSvg({
          title: 'Rounds per run',
          bars,
          markers,
          xTitle: 'model calls (rounds) per run',
          yTitle: 'runs',
        });
  return figure(
    'rounds',
    'Rounds per run, with P95, the recommended ceiling (P95 + 2) and the configured ceiling',
    body,
    noFinishedRun(report),
  );
}

function repeatRateFigure(report: AuditReport): string {
  const { repeats } = report;
  const points = repeats.overTime.map((period) => ({
    label: period.period,
    value: period.rate,
    title: `${period.period}: ${formatNumber(period.repeated)} of ${formatNumber(period.calls)} calls repeated (${formatRate(period.rate)})`,
  }));
  const body =
    points.length === 0
      ? undefined
      : lineChartSvg({
          title: 'Repeated-fingerprint hit rate over time',
          points,
          reference: { label: 'overall', value: repeats.rate },
          format: formatRate,
          xTitle: `UTC ${repeats.granularity}`,
          yTitle: 'repeated calls',
        });
  return figure(
    'repeat-rate',
    `Repeated-fingerprint hit rate by UTC ${repeats.granularity}`,
    body,
    'No calls with an argument digest.',
  );
}

function stopsFigure(report: AuditReport): string {
  const rows = report.stops.byReason.map((stop) => ({
    label: stop.reason,
    bars: [
      { label: stop.reason, value: stop.runs, title: `${stop.reason}: ${formatNumber(stop.runs)} runs` },
    ],
  }));
  return figure(
    'stops',
    'Stopped runs by reason',
    plainBars('Stopped runs by reason', rows, 'runs'),
    report.rounds.runs === 0
      ? noFinishedRun(report)
      : `No run stopped: all ${formatNumber(report.rounds.runs)} finished runs completed.`,
  );
}

function errorsFigure(report: AuditReport): string {
  const rows = report.errors.byClass.map((entry) => ({
    label: entry.errorClass,
    bars: [
      {
        label: entry.errorClass,
        value: entry.calls,
        title: `${entry.errorClass}: ${formatNumber(entry.calls)} calls`,
      },
    ],
  }));
  return figure(
    'errors',
    'Failed calls by error class',
    plainBars('Failed calls by error class', rows, 'calls'),
    'No failed calls.',
  );
}

function plainBars(
  title: string,
  rows: Parameters<typeof barListSvg>[0]['rows'],
  unit: string,
): string | undefined {
  if (rows.length === 0) return undefined;
  return barListSvg({
    title,
    rows,
    series: [{ name: unit, color: BLUE }],
    format: formatNumber,
    integer: true,
    xTitle: unit,
  });
}

function latencyFigure(report: AuditReport): string {
  // A tool none of whose calls ran (all refused or replayed) has no latency to draw.
  const rows = report.tools.flatMap(({ tool, latencyMs }) => {
    const { p50, p95, p99 } = latencyMs;
    if (p50 === null || p95 === null || p99 === null) return [];
    const values = { p50, p95, p99 };
    return [
      {
        label: tool,
        bars: LATENCY_SERIES.map((series) => ({
          label: tool,
          series,
          value: values[series],
          title: `${tool} ${series}: ${formatNumber(values[series])} ms`,
        })),
      },
    ];
  });
  const body =
    rows.length === 0
      ? undefined
      : barListSvg({
          title: 'Tool latency',
          rows,
          series: LATENCY_SERIES.map((name, index) => ({ name, color: SERIES_COLORS[index] ?? BLUE })),
          format: (ms) => `${formatNumber(ms)} ms`,
          integer: false,
          xTitle: 'duration (ms)',
        });
  return figure(
    'latency',
    'Tool latency: P50, P95 and P99 per tool, of the calls that ran',
    body,
    report.tools.length === 0
      ? 'No tool calls.'
      : 'No call ran: every one was refused before it ran, or replayed.',
  );
}
