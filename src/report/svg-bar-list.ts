import { escapeHtml } from './html-escape.js';
import {
  axisTitle,
  barLength,
  type ChartMark,
  type ChartTexts,
  markAttributes,
  markTitle,
  niceTicks,
  px,
  svgOpen,
  svgText,
  xGridLine,
} from './svg-parts.js';

/** One row of a bar list: a label and one bar per series (one for a plain list, three for latency). */
export interface BarRow {
  readonly label: string;
  readonly bars: readonly ChartMark[];
}

export interface BarListSpec extends ChartTexts {
  readonly rows: readonly BarRow[];
  /** Series names and colours, in the order of each row's bars; one entry for a plain list (no legend). */
  readonly series: readonly { readonly name: string; readonly color: string }[];
  readonly format: (value: number) => string;
  readonly integer: boolean;
}

/** Width, the label column (left of the bars), room for the last value label, the x axis below. */
const [WIDTH, LABEL_COLUMN, RIGHT, BOTTOM] = [720, 200, 70, 40];
/** Characters of a row label that fit the label column at 12 px; the rest is in its tooltip. */
const LABEL_CHARS = 24;

/** Horizontal bars, one row per label, grouped by series: long labels (tool names) read best this way. */
export function barListSvg(spec: BarListSpec): string {
  const grouped = spec.series.length > 1;
  const barHeight = grouped ? 10 : 16;
  const rowHeight = spec.series.length * barHeight + (grouped ? 10 : 8);
  const top = grouped ? 28 : 8;
  const plotHeight = spec.rows.length * rowHeight;
  const height = top + plotHeight + BOTTOM;
  const plotWidth = WIDTH - LABEL_COLUMN - RIGHT;
  const bottom = top + plotHeight;
  const values = spec.rows.flatMap((row) => row.bars.map((bar) => bar.value));
  const ticks = niceTicks(Math.max(0, ...values), 5, spec.integer);
  const max = ticks[ticks.length - 1] ?? 1;
  const parts = [svgOpen(WIDTH, height, spec.title)];
  for (const tick of ticks) {
    parts.push(xGridLine(LABEL_COLUMN + (tick / max) * plotWidth, top, bottom, spec.format(tick)));
  }
  if (grouped) parts.push(legend(spec.series));
  spec.rows.forEach((row, rowIndex) => {
    const rowTop = top + rowIndex * rowHeight + 4;
    const middle = rowTop + (spec.series.length * barHeight) / 2;
    parts.push(
      svgText(
        row.label,
        `class="row-label" x="${LABEL_COLUMN - 8}" y="${px(middle + 4)}" text-anchor="end"`,
        LABEL_CHARS,
      ),
    );
    row.bars.forEach((bar, barIndex) => {
      const y = rowTop + barIndex * barHeight;
      const length = barLength(bar.value, max, plotWidth);
      const color = spec.series[barIndex]?.color ?? '#4c78a8';
      parts.push(
        `<rect ${markAttributes(bar)} x="${LABEL_COLUMN}" y="${px(y)}" width="${px(length)}" height="${px(barHeight - 1)}" fill="${color}">${markTitle(bar)}</rect>`,
        svgText(
          spec.format(bar.value),
          `class="bar-value" x="${px(LABEL_COLUMN + length + 4)}" y="${px(y + barHeight - 2)}"`,
        ),
      );
    });
  });
  parts.push(`<line class="axis" x1="${LABEL_COLUMN}" x2="${LABEL_COLUMN}" y1="${top}" y2="${px(bottom)}"/>`);
  parts.push(axisTitle(spec.xTitle, LABEL_COLUMN + plotWidth / 2, height - 6));
  parts.push('</svg>');
  return parts.join('');
}

function legend(series: BarListSpec['series']): string {
  return series
    .map(
      (entry, index) =>
        `<rect x="${LABEL_COLUMN + index * 90}" y="6" width="12" height="12" fill="${entry.color}"/>` +
        `<text class="legend" x="${LABEL_COLUMN + index * 90 + 17}" y="16">${escapeHtml(entry.name)}</text>`,
    )
    .join('');
}
