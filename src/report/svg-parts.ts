import { escapeHtml, truncateText } from './html-escape.js';

/** A bar or a point: what it shows (`data-label`, `data-series`) and its exact figure (`data-value`). */
export interface ChartMark {
  readonly label: string;
  readonly value: number;
  readonly series?: string;
  /** The tooltip: the figure as a person reads it. */
  readonly title: string;
}

/** Axis ticks from 0: a step of 1, 2 or 5 × 10^k, about `count` of them, the last at or above `max`. */
export function niceTicks(max: number, count = 5, integer = false): readonly number[] {
  const top = Number.isFinite(max) && max > 0 ? max : 1;
  const rough = top / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step0 = [1, 2, 5, 10].map((factor) => factor * magnitude).find((step) => step >= rough) ?? rough;
  const step = integer ? Math.max(1, Math.round(step0)) : step0;
  const ticks: number[] = [];
  for (let i = 0; i * step < top + step; i++) {
    ticks.push(Number((i * step).toPrecision(12)));
    if (i * step >= top) break;
  }
  return ticks;
}

/** A coordinate as SVG text: one decimal, and 0 for anything not finite (a chart must never say NaN). */
export function px(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 10) / 10) : '0';
}

/** Figures as the page prints them: thousands separated, at most two decimals. */
export function formatNumber(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** A rate (0..1) as a percentage with at most one decimal. */
export function formatRate(rate: number): string {
  return `${(rate * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
}

/** The opening tag: a fixed drawing size that scales down with the page (CSS max-width). */
export function svgOpen(width: number, height: number, label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(label)}">`;
}

/** A mark's data attributes and tooltip, the figures exact (`String(value)` reads back as the same number). */
export function markAttributes(mark: ChartMark): string {
  const series = mark.series === undefined ? '' : ` data-series="${escapeHtml(mark.series)}"`;
  return `class="mark" data-label="${escapeHtml(mark.label)}"${series} data-value="${String(mark.value)}"`;
}

export function markTitle(mark: ChartMark): string {
  return `<title>${escapeHtml(mark.title)}</title>`;
}

/** Text in a chart, cut to `max` characters; the full text is its tooltip. */
export function svgText(text: string, attributes: string, max = 200): string {
  const shown = truncateText(text, max);
  const title = shown === text ? '' : `<title>${escapeHtml(text)}</title>`;
  return `<text ${attributes}>${title}${escapeHtml(shown)}</text>`;
}

/** A horizontal grid line with its tick label on the left (the value axis of a column chart). */
export function yGridLine(y: number, left: number, right: number, label: string): string {
  return (
    `<line class="grid" x1="${px(left)}" x2="${px(right)}" y1="${px(y)}" y2="${px(y)}"/>` +
    svgText(label, `class="tick" x="${px(left - 6)}" y="${px(y + 4)}" text-anchor="end"`)
  );
}

/** A vertical grid line with its tick label below (the value axis of a bar list). */
export function xGridLine(x: number, top: number, bottom: number, label: string): string {
  return (
    `<line class="grid" x1="${px(x)}" x2="${px(x)}" y1="${px(top)}" y2="${px(bottom)}"/>` +
    svgText(label, `class="tick" x="${px(x)}" y="${px(bottom + 14)}" text-anchor="middle"`)
  );
}

/** An axis title. */
export function axisTitle(text: string, x: number, y: number, rotate = false): string {
  const transform = rotate ? ` transform="rotate(-90 ${px(x)} ${px(y)})"` : '';
  return svgText(text, `class="axis-title" x="${px(x)}" y="${px(y)}" text-anchor="middle"${transform}`);
}

/** Bar length for a value on a scale of `top`: at least 1 px for a value above 0, so it still shows. */
export function barLength(value: number, top: number, span: number): number {
  if (!(value > 0) || !(top > 0)) return 0;
  return Math.max(1, (Math.min(value, top) / top) * span);
}

/** The texts every chart has: its accessible name and its axis titles. */
export interface ChartTexts {
  readonly title: string;
  readonly xTitle: string;
}

/** A chart's drawing size and the margins around its plot. */
export interface Frame {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** The plot inside a frame's margins. */
export function plotOf(frame: Frame): {
  readonly width: number;
  readonly height: number;
  readonly bottom: number;
} {
  const height = frame.height - frame.top - frame.bottom;
  return { width: frame.width - frame.left - frame.right, height, bottom: frame.top + height };
}

/** The end of a chart whose values go up: the base line, both axis titles, the closing tag. */
export function closeColumnChart(frame: Frame, texts: ChartTexts & { readonly yTitle: string }): string {
  const plot = plotOf(frame);
  return (
    `<line class="axis" x1="${frame.left}" x2="${frame.width - frame.right}" y1="${px(plot.bottom)}" y2="${px(plot.bottom)}"/>` +
    axisTitle(texts.xTitle, frame.left + plot.width / 2, frame.height - 6) +
    axisTitle(texts.yTitle, 14, frame.top + plot.height / 2, true) +
    '</svg>'
  );
}

/** A reference line (`class="marker"`) with its exact figure, around the line and label drawn. */
export function markerGroup(label: string, value: number, drawn: string): string {
  return `<g class="marker" data-label="${escapeHtml(label)}" data-value="${String(value)}">${drawn}</g>`;
}
