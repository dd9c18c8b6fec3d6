import { DEFAULT_MAX_CALLS_PER_TOOL, DEFAULT_MAX_CALLS_PER_TURN } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import type { LimitScope } from '../core/tool-execution-result.js';
import { checkNumberOption } from '../options/check-option.js';
import type { AnyTool } from '../tools/define-tool.js';
import { EFFECT_CHOICES, isToolEffect, TOOL_EFFECTS } from '../tools/tool-effect.js';
import type { ToolRuntimeOptions } from './tool-runtime-options.js';

/** Per-turn call limits: `ToolRuntimeOptions['limits']`. */
export type CallLimits = NonNullable<ToolRuntimeOptions['limits']>;

/** The call limits a runtime applies, every default filled in. */
export interface ResolvedCallLimits {
  /** The total limit of a turn; a default one is raised to the run's `ceiling` of model calls. */
  totalFor(ceiling: number | undefined): number;
  isExcluded(toolName: string): boolean;
  /** The tool's limit in a turn; a default one is raised to the run's `ceiling` of model calls. */
  limitFor(tool: AnyTool, ceiling?: number): number;
  /** The session's limit of calls to the tool; undefined: none. */
  sessionLimitFor(tool: AnyTool): number | undefined;
  /** The session's limit of calls to all tools; undefined: none. */
  readonly sessionTotal: number | undefined;
}

export function resolveCallLimits(limits: CallLimits = {}): ResolvedCallLimits {
  if (typeof limits !== 'object' || limits === null) {
    throw new InvalidOptionsError({ option: 'limits', message: 'must be an object' });
  }
  const limit = (value: unknown, field: string) =>
    checkNumberOption(value, { option: `limits.${field}`, min: 0 });
  const perTool = limit(limits.perTool, 'perTool');
  const total = limit(limits.total, 'total');
  const byTool = new Map<string, number>();
  for (const [name, value] of Object.entries(limits.byTool ?? {})) {
    const checked = limit(value, `byTool.${name}`);
    if (checked !== undefined) byTool.set(name, checked);
  }
  const byEffect = new Map<string, number>();
  for (const effect of Object.keys(limits.byEffect ?? {})) {
    if (!isToolEffect(effect)) {
      throw new InvalidOptionsError({
        option: `limits.byEffect.${effect}`,
        message: `is not an effect: use ${EFFECT_CHOICES}`,
      });
    }
  }
  for (const effect of TOOL_EFFECTS) {
    const checked = limit(limits.byEffect?.[effect], `byEffect.${effect}`);
    if (checked !== undefined) byEffect.set(effect, checked);
  }
  const excluded = new Set(limits.exclude ?? []);
  const session = limits.perSession ?? {};
  if (typeof session !== 'object' || session === null) {
    throw new InvalidOptionsError({ option: 'limits.perSession', message: 'must be an object' });
  }
  const sessionPerTool = limit(session.perTool, 'perSession.perTool');
  const sessionByTool = new Map<string, number>();
  for (const [name, value] of Object.entries(session.byTool ?? {})) {
    const checked = limit(value, `perSession.byTool.${name}`);
    if (checked !== undefined) sessionByTool.set(name, checked);
  }
  // A default limit never stops a run before its own ceiling would: the two agree.
  const atLeast = (fallback: number, ceiling: number | undefined) => Math.max(fallback, ceiling ?? 0);
  return {
    totalFor: (ceiling) => total ?? atLeast(DEFAULT_MAX_CALLS_PER_TURN, ceiling),
    isExcluded: (toolName) => excluded.has(toolName),
    limitFor: (tool, ceiling) =>
      tool.maxCallsPerTurn ??
      byTool.get(tool.name) ??
      byEffect.get(tool.effect) ??
      perTool ??
      atLeast(DEFAULT_MAX_CALLS_PER_TOOL, ceiling),
    sessionLimitFor: (tool) => sessionByTool.get(tool.name) ?? sessionPerTool,
    sessionTotal: limit(session.total, 'perSession.total'),
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

/** What the model is told when a session's limit is reached: no further call in this conversation. */
export function sessionLimitMessage(
  limit: { readonly scope: 'session-per-tool' | 'session-total'; readonly limit: number },
  toolName: string,
): string {
  return limit.scope === 'session-per-tool'
    ? `Tool call limit (${limit.limit}) exceeded for tool '${toolName}' in this session. No further calls to this tool are allowed in this conversation.`
    : `Total tool call limit (${limit.limit}) exceeded for this session. No further tool calls are allowed in this conversation.`;
}

/** What the model is told when a call reaches a limit of any scope. */
export function limitModelText(
  limit: { readonly scope: LimitScope; readonly limit: number },
  toolName: string,
): string {
  switch (limit.scope) {
    case 'per-tool':
      return perToolLimitMessage(limit.limit, toolName);
    case 'total':
      return totalLimitMessage(limit.limit);
    case 'session-per-tool':
    case 'session-total':
      return sessionLimitMessage({ scope: limit.scope, limit: limit.limit }, toolName);
  }
}

/**
 * The message of the ToolCallLimitExceededError a limit throws: for a turn's, Spring AI 2.0.1's texts,
 * literally (the total's without the model's last sentence); for a session's, the model's text.
 */
export function limitErrorMessage(
  limit: { readonly scope: LimitScope; readonly limit: number },
  toolName: string,
): string {
  return limit.scope === 'total' ? totalLimitErrorMessage(limit.limit) : limitModelText(limit, toolName);
}

function totalLimitErrorMessage(limit: number): string {
  return `Total tool call limit (${limit}) exceeded for this turn`;
}

export type { LimitScope };
