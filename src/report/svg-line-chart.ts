import {
  type ChartMark,
  type ChartTexts,
  closeColumnChart,
  type Frame,
  markAttributes,
  markerGroup,
  markTitle,
  niceTicks,
  plotOf,
  px,
  svgOpen,
  svgText,
  yGridLine,
} from './svg-parts.js';

export interface LineChartSpec extends ChartTexts {
  /** In x order, evenly spaced (periods). */
  readonly points: readonly ChartMark[];
  /** A dashed horizontal line across the chart (the overall rate). */
  readonly reference?: { readonly label: string; readonly value: number };
  readonly format: (value: number) => string;
  readonly yTitle: string;
}

const FRAME: Frame = { width: 720, height: 280, left: 60, right: 16, top: 20, bottom: 46 };
/** Room an x label needs (a period like `2026-12-01T15` at 10 px): fewer labels than points when crowded. */
const LABEL_WIDTH = 84;

/** Points joined by a line over evenly spaced periods, the y axis from 0. */
export function lineChartSvg(spec: LineChartSpec): string {
  const { width: plotWidth, height: plotHeight, bottom } = plotOf(FRAME);
  const [left, right] = [FRAME.left, FRAME.width - FRAME.right];
  const count = spec.points.length;
  const step = plotWidth / Math.max(1, count);
  const max = Math.max(0, spec.reference?.value ?? 0, ...spec.points.map((point) => point.value));
  const ticks = niceTicks(max, 5);
  const top = ticks[ticks.length - 1] ?? 1;
  const xOf = (index: number): number => left + (index + 0.5) * step;
  const yOf = (value: number): number => bottom - (Math.max(0, Math.min(value, top)) / top) * plotHeight;
  const parts = [svgOpen(FRAME.width, FRAME.height, spec.title)];
  for (const tick of ticks) parts.push(yGridLine(yOf(tick), left, right, spec.format(tick)));
  const every = Math.max(1, Math.ceil(LABEL_WIDTH / step));
  spec.points.forEach((point, index) => {
    if (index % every !== 0) return;
    parts.push(
      svgText(
        point.label,
        `class="tick" x="${px(xOf(index))}" y="${px(bottom + 16)}" text-anchor="middle"`,
        16,
      ),
    );
  });
  if (spec.reference !== undefined) {
    const y = yOf(spec.reference.value);
    const text = `${spec.reference.label} ${spec.format(spec.reference.value)}`;
    parts.push(
      markerGroup(
        spec.reference.label,
        spec.reference.value,
        `<line x1="${left}" x2="${right}" y1="${px(y)}" y2="${px(y)}" stroke="#7f7f7f" stroke-width="1.5" stroke-dasharray="5 3"/>` +
          svgText(
            text,
            `x="${right - 4}" y="${px(y - 5)}" text-anchor="end" class="marker-label" fill="#555"`,
          ),
      ),
    );
  }
  const line = spec.points.map((point, index) => `${px(xOf(index))},${px(yOf(point.value))}`).join(' ');
  if (count > 1) parts.push(`<polyline class="line" points="${line}"/>`);
  spec.points.forEach((point, index) => {
    parts.push(
      `<circle ${markAttributes(point)} cx="${px(xOf(index))}" cy="${px(yOf(point.value))}" r="4">${markTitle(point)}</circle>`,
    );
  });
  parts.push(closeColumnChart(FRAME, spec));
  return parts.join('');
}
