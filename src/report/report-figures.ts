import { DEFAULT_REPORT_MAX_TOOL_NAME_CHARS } from '../core/defaults.js';
import type { ToolCount, ToolReport } from './audit-report.js';

// The small, pure figures of the report: ordering, ratios, rounding, the tool name as shown.

const TOP = 10;

export function topBy(
  tools: readonly ToolReport[],
  count: (tool: ToolReport) => number,
  limit = TOP,
): readonly ToolCount[] {
  return tools
    .map((tool) => ({ tool: tool.tool, count: count(tool) }))
    .filter((row) => row.count > 0)
    .sort((a, b) => b.count - a.count || compareText(a.tool, b.tool))
    .slice(0, limit);
}

/** Entries by count, most first; ties by key, so a report is the same for the same log. */
export function mostFirst<K extends string | number>(counts: ReadonlyMap<K, number>): [K, number][] {
  return [...counts].sort(([a, x], [b, y]) => y - x || compareText(String(a), String(b)));
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

export function round3(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** A tool name as the report shows it: cut, so one model-made name cannot fill the page. */
export function shownName(name: string): string {
  return name.length <= DEFAULT_REPORT_MAX_TOOL_NAME_CHARS
    ? name
    : `${name.slice(0, DEFAULT_REPORT_MAX_TOOL_NAME_CHARS - 1)}…`;
}

/** Why a log without run records has no rounds, ceiling, stops or tokens. */
export const NO_RUN_RECORDS =
  'no run records: this log has calls only (an MCP proxy log, or calls made outside a run)';
