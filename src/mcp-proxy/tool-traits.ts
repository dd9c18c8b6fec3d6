import { trustedHintEffect } from '../adapters/mcp/mcp-tool-info.js';
import { mayChangeWorld, type ToolEffect } from '../tools/tool-effect.js';
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
 * A tool's effect in the proxy (docs/effects.md): a tool of `idempotentWrites` is a (deduplicated) write;
 * a trusted server's hints give read, idempotent write or write; an untrusted server's tools are of
 * unknown effect, whatever their hints say. The same rule as the proxy's chain (`fromMcpClient`).
 */
export function proxyToolEffect(
  name: string,
  tool: ProxiedTool | undefined,
  config: ProxyConfig,
): ToolEffect {
  if (config.idempotentWrites.tools.includes(name)) return 'write';
  return config.trustAnnotations ? trustedHintEffect(tool?.annotations) : 'unknown';
}

/**
 * Whether the loop guard takes a tool as one that may change the world (its new successful call is a new
 * situation), not as a read: every effect but `read`, the unknown included (`mayChangeWorld`). A name the
 * upstream does not list is not: it never runs.
 */
export function isWriteTool(name: string, tool: ProxiedTool | undefined, config: ProxyConfig): boolean {
  return tool !== undefined && mayChangeWorld(proxyToolEffect(name, tool, config));
}

/**
 * Whether a call the loop guard stopped is refused before it runs again. A repeated write is the danger:
 * a `write`, or a tool that says it is destructive (a hint toward caution, believed from any server), is
 * refused unrun. Any other tool (a read, an idempotent write, a tool of unknown effect, which may be a
 * read) runs again and its result decides: the same result is the loop, a new one (a file changed since)
 * is not.
 */
export function refusedUnrunWhenStopped(
  name: string,
  tool: ProxiedTool | undefined,
  config: ProxyConfig,
): boolean {
  return proxyToolEffect(name, tool, config) === 'write' || isDestructive(tool, config.trustAnnotations);
}

/** Whether a call to `name` needs the user's confirmation under the config. */
export function needsConfirmation(name: string, tool: ProxiedTool | undefined, config: ProxyConfig): boolean {
  const { confirm } = config;
  if (confirm === false) return false;
  if (confirm.tools === 'destructive') return isDestructive(tool, config.trustAnnotations);
  return matchesAny(confirm.tools, name);
}
