import { DEFAULT_MAX_CALLS_PER_TOOL, DEFAULT_MAX_CALLS_PER_TURN } from '../defaults.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { AnyTool, ToolEffect } from '../tools/define-tool.js';

/** Per-turn call limits. A turn starts at the last user message. */
export interface CallLimits {
  /** Calls to any one tool (default 40). */
  readonly perTool?: number;
  /** Calls to all tools together (default 150). */
  readonly total?: number;
  /** Per tool name; wins over `byEffect` and `perTool`, loses to the tool's own `maxCallsPerTurn`. */
  readonly byTool?: Readonly<Record<string, number>>;
  /** Per effect (`read`, `write`); wins over `perTool`. */
  readonly byEffect?: Readonly<Partial<Record<ToolEffect, number>>>;
  /** Tools neither limited nor counted toward the total. */
  readonly exclude?: readonly string[];
}

export interface ResolvedCallLimits {
  readonly total: number;
  isExcluded(toolName: string): boolean;
  limitFor(tool: AnyTool): number;
}

export function resolveCallLimits(limits: CallLimits = {}): ResolvedCallLimits {
  const perTool = checkLimit(limits.perTool, 'perTool') ?? DEFAULT_MAX_CALLS_PER_TOOL;
  const total = checkLimit(limits.total, 'total') ?? DEFAULT_MAX_CALLS_PER_TURN;
  const byTool = new Map<string, number>();
  for (const [name, value] of Object.entries(limits.byTool ?? {})) {
    byTool.set(name, checkLimit(value, `byTool.${name}`) as number);
  }
  const byEffect = {
    read: checkLimit(limits.byEffect?.read, 'byEffect.read'),
    write: checkLimit(limits.byEffect?.write, 'byEffect.write'),
  };
  const excluded = new Set(limits.exclude ?? []);
  return {
    total,
    isExcluded: (toolName) => excluded.has(toolName),
    limitFor: (tool) => tool.maxCallsPerTurn ?? byTool.get(tool.name) ?? byEffect[tool.effect] ?? perTool,
  };
}

function checkLimit(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new InvalidOptionsError({
      option: `limits.${field}`,
      message: `must be an integer >= 0, got ${String(value)}`,
    });
  }
  return value;
}

export function perToolLimitMessage(limit: number, toolName: string): string {
  return `Tool call limit (${limit}) exceeded for tool '${toolName}'. No further calls to this tool are allowed in this turn.`;
}

export function totalLimitMessage(limit: number): string {
  return `Total tool call limit (${limit}) exceeded for this turn`;
}
