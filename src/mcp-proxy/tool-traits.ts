import type { ProxiedTool } from './mcp-shapes.js';
import type { ProxyConfig } from './proxy-config.js';
import { matchesAny } from './tool-pattern.js';

/**
 * Whether a tool counts as destructive for `confirm: { tools: "destructive" }`. MCP's annotations are
 * hints, untrusted unless the server is: a hint that asks for more caution (`destructiveHint: true`) is
 * believed from any server, since a lie there only costs a confirmation. With `trustAnnotations`, MCP's
 * own defaults apply too: a tool not marked `readOnlyHint: true` is destructive unless marked
 * `destructiveHint: false` (an unannotated tool included).
 */
export function isDestructive(tool: ProxiedTool | undefined, trustAnnotations: boolean): boolean {
  const hints = tool?.annotations;
  // Untrusted, `readOnlyHint: true` is a claim of safety like any other: it does not cancel the warning.
  if (!trustAnnotations) return hints?.destructiveHint === true;
  return hints?.readOnlyHint !== true && hints?.destructiveHint !== false;
}

/**
 * Whether the loop guard treats a tool as a write (a successful new write is a new situation for the
 * reads after it). Only the operator's word or a trusted server's counts: an untrusted server that calls a
 * read a write would loosen the guard.
 */
export function isWriteTool(name: string, tool: ProxiedTool | undefined, config: ProxyConfig): boolean {
  if (config.idempotentWrites.tools.includes(name)) return true;
  return config.trustAnnotations && tool !== undefined && tool.annotations?.readOnlyHint !== true;
}

/** Whether a call to `name` needs the user's confirmation under the config. */
export function needsConfirmation(name: string, tool: ProxiedTool | undefined, config: ProxyConfig): boolean {
  const { confirm } = config;
  if (confirm === false) return false;
  if (confirm.tools === 'destructive') return isDestructive(tool, config.trustAnnotations);
  return matchesAny(confirm.tools, name);
}
