import {
  barLength,
  type ChartMark,
  type ChartTexts,
  closeColumnChart,
  type Frame,
  formatNumber,
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

/** A vertical reference line on the histogram's x axis: P95, the recommended or a configured ceiling. */
export interface HistogramMarker {
  readonly label: string;
  readonly value: number;
  readonly color: string;
}

export interface HistogramSpec extends ChartTexts {
  /** One bar per exact x (`label` is the x as text, `value` its count). */
  readonly bars: readonly (ChartMark & { readonly x: number })[];
  readonly markers: readonly HistogramMarker[];
  readonly yTitle: string;
}

const FRAME: Frame = { width: 720, height: 300, left: 56, right: 16, top: 48, bottom: 46 };

/**
 * Columns on an integer x axis (one slot per value, so gaps show as gaps), with labelled vertical markers.
 * The axis spans the bars and the markers: a ceiling of 50 beside runs of 3 to 12 rounds is the point.
 */
export function histogramSvg(spec: HistogramSpec): string {
  const xs = [...spec.bars.map((bar) => bar.x), ...spec.markers.map((marker) => marker.value)];
  const lo = Math.min(1, ...xs);
  const hi = Math.max(lo, ...xs);
  const { width: plotWidth, height: plotHeight, bottom } = plotOf(FRAME);
  const slot = plotWidth / (hi - lo + 1);
  const centre = (x: number): number => FRAME.left + (x - lo + 0.5) * slot;
  const yTicks = niceTicks(Math.max(0, ...spec.bars.map((bar) => bar.value)), 5, true);
  const top = yTicks[yTicks.length - 1] ?? 1;
  const parts = [svgOpen(FRAME.width, FRAME.height, spec.title)];
  for (const tick of yTicks) {
    parts.push(
      yGridLine(
        bottom - (tick / top) * plotHeight,
        FRAME.left,
        FRAME.width - FRAME.right,
        formatNumber(tick),
      ),
    );
  }
  // x ticks on multiples of a round step (5, 10, 15 rather than 1, 6, 11).
  const step = niceTicks(hi - lo + 1, 10, true)[1] ?? 1;
  for (let x = Math.ceil(lo / step) * step; x <= hi; x += step) {
    parts.push(
      svgText(String(x), `class="tick" x="${px(centre(x))}" y="${px(bottom + 16)}" text-anchor="middle"`),
    );
  }
  const barWidth = Math.min(40, Math.max(1, slot * 0.8));
  for (const bar of spec.bars) {
    const height = barLength(bar.value, top, plotHeight);
    parts.push(
      `<rect ${markAttributes(bar)} x="${px(centre(bar.x) - barWidth / 2)}" y="${px(bottom - height)}" width="${px(barWidth)}" height="${px(height)}" fill="#4c78a8">${markTitle(bar)}</rect>`,
    );
  }
  spec.markers.forEach((marker, index) => {
    parts.push(markerSvg(marker, centre(marker.value), index, bottom));
  });
  parts.push(closeColumnChart(FRAME, spec));
  return parts.join('');
}

/** A dashed line and its label; labels take turns on three rows so close markers stay legible. */
function markerSvg(marker: HistogramMarker, x: number, index: number, bottom: number): string {
  const labelY = 12 + (index % 3) * 13;
  const anchor = x > FRAME.width - 120 ? 'end' : x < FRAME.left + 60 ? 'start' : 'middle';
  const text = `${marker.label} ${formatNumber(marker.value)}`;
  return markerGroup(
    marker.label,
    marker.value,
    `<line x1="${px(x)}" x2="${px(x)}" y1="${px(labelY + 3)}" y2="${px(bottom)}" stroke="${marker.color}" stroke-width="2" stroke-dasharray="5 3"/>` +
      svgText(
        text,
        `x="${px(x)}" y="${px(labelY)}" text-anchor="${anchor}" fill="${marker.color}" class="marker-label"`,
      ) +
      '</g>',
  );
}
