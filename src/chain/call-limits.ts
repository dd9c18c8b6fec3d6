import { DEFAULT_MAX_CALLS_PER_TOOL, DEFAULT_MAX_CALLS_PER_TURN } from '../defaults.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { checkNumberOption } from '../options/check-option.js';
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
  if (typeof limits !== 'object' || limits === null) {
    throw new InvalidOptionsError({ option: 'limits', message: 'must be an object' });
  }
  const limit = (value: unknown, field: string) =>
    checkNumberOption(value, { option: `limits.${field}`, min: 0 });
  const perTool = limit(limits.perTool, 'perTool') ?? DEFAULT_MAX_CALLS_PER_TOOL;
  const total = limit(limits.total, 'total') ?? DEFAULT_MAX_CALLS_PER_TURN;
  const byTool = new Map<string, number>();
  for (const [name, value] of Object.entries(limits.byTool ?? {})) {
    const checked = limit(value, `byTool.${name}`);
    if (checked !== undefined) byTool.set(name, checked);
  }
  const byEffect = {
    read: limit(limits.byEffect?.read, 'byEffect.read'),
    write: limit(limits.byEffect?.write, 'byEffect.write'),
  };
  const excluded = new Set(limits.exclude ?? []);
  return {
    total,
    isExcluded: (toolName) => excluded.has(toolName),
    limitFor: (tool) => tool.maxCallsPerTurn ?? byTool.get(tool.name) ?? byEffect[tool.effect] ?? perTool,
  };
}

/** A per-tool limit reached: what the model is told, and the thrown error's message (Spring AI 2.0.1's text). */
export function perToolLimitMessage(limit: number, toolName: string): string {
  return `Tool call limit (${limit}) exceeded for tool '${toolName}'. No further calls to this tool are allowed in this turn.`;
}

/**
 * The total limit reached: what the model is told. Like the per-tool text, it says that no further call
 * is allowed, so the model answers instead of trying another tool.
 */
export function totalLimitMessage(limit: number): string {
  return `${totalLimitErrorMessage(limit)}. No further tool calls are allowed in this turn.`;
}

/** The message of the ToolCallLimitExceededError a limit throws: Spring AI 2.0.1's texts, literally. */
export function limitErrorMessage(
  limit: { readonly scope: 'per-tool' | 'total'; readonly limit: number },
  toolName: string,
): string {
  switch (limit.scope) {
    case 'per-tool':
      return perToolLimitMessage(limit.limit, toolName);
    case 'total':
      return totalLimitErrorMessage(limit.limit);
  }
}

function totalLimitErrorMessage(limit: number): string {
  return `Total tool call limit (${limit}) exceeded for this turn`;
}
