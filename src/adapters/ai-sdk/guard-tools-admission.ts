import { perToolLimitMessage, totalLimitMessage } from '../../chain/call-limits.js';
import type { ResolvedPolicy } from '../../chain/execution-policy.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';

/**
 * The turn limits of a guard, counted when the AI SDK hands over a call, before anything is awaited. The
 * AI SDK starts the calls of a step at once, and the chain counts a call only once its store reservation
 * is back, so two calls of one step could both pass a limit of one; counting here first closes that. The
 * chain still counts its own (invalid attempts, the session's limits in the store).
 */
export function createAdmission(
  policy: ResolvedPolicy,
  registry: ToolRegistry,
): (name: string) => string | undefined {
  const perTool = new Map<string, number>();
  let total = 0;
  return (name) => {
    const tool = registry.get(name);
    if (tool === undefined || policy.limits.isExcluded(name)) return undefined;
    const limit = policy.limits.limitFor(tool);
    const calls = perTool.get(name) ?? 0;
    if (calls >= limit) return `TOOL_CALL_LIMIT: ${perToolLimitMessage(limit, name)}`;
    if (total >= policy.limits.total) return `TOOL_CALL_LIMIT: ${totalLimitMessage(policy.limits.total)}`;
    perTool.set(name, calls + 1);
    total++;
    return undefined;
  };
}
