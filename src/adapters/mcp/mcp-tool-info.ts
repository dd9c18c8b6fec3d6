import { mayChangeWorld, type ToolEffect } from '../../tools/tool-effect.js';
import type { ProxiedTool } from './proxy/mcp-shapes.js';
import type { ProxyConfig } from './proxy/proxy-config-types.js';
import { matchesAny } from './proxy/tool-pattern.js';

/** The hints a server gave, as booleans. */
export type McpToolHints = McpToolInfo['hints'];

/** What toolwarden made of one server tool: shown to `options.tool` and kept on the handle. */
export interface McpToolInfo {
  /** The name on the server. */
  readonly originalName: string;
  /** The provider-legal name the model calls it by. */
  readonly name: string;
  readonly title: string | undefined;
  /** The hints the server gave (`annotations`), as booleans; absent ones are undefined. */
  readonly hints: {
    readonly readOnlyHint: boolean | undefined;
    readonly destructiveHint: boolean | undefined;
    readonly idempotentHint: boolean | undefined;
    readonly openWorldHint: boolean | undefined;
  };
  /** Whether the hints were believed (`options.trusted`). */
  readonly trusted: boolean;
  readonly effect: ToolEffect;
  /** May destroy or overwrite by MCP's defaults on the hints as given: ask for approval here (`options.tool`). */
  readonly destructive: boolean;
  /** Calling it twice with the same arguments does no more than once (a trusted read or idempotent write). */
  readonly idempotent: boolean;
  readonly hasOutputSchema: boolean;
}

/**
 * The annotation trust rule. The spec calls annotations hints, untrusted unless the server is trusted.
 * - untrusted (the default): the effect is `unknown`, whatever the hints say: never retried, never
 *   answered from a record, judged by the loop guard as a call that may change something (see
 *   docs/effects.md). A server cannot buy retries, parallel runs or a replayed answer by saying
 *   `readOnlyHint: true`, and a read of it is never answered with a stale result;
 * - trusted: `readOnlyHint: true` makes a `read` tool (retried, run in parallel, identical calls of a
 *   response share one run); `idempotentHint: true` an `idempotent-write` (retried: doing it twice does no
 *   more than once); any other tool a `write`.
 * `destructive` is MCP's defaults applied to the hints as given (not read-only, and not marked
 * `destructiveHint: false`), trusted or not: it decides whom to ask, and a server that says nothing is
 * asked about. An untrusted server can lie to avoid a question: name such tools in `options.tool`.
 */
export function describeMcpTool(
  names: { readonly originalName: string; readonly name: string; readonly title: string | undefined },
  hints: McpToolHints,
  trusted: boolean,
  hasOutputSchema: boolean,
): McpToolInfo {
  const effect = trusted ? trustedHintEffect(hints) : 'unknown';
  return Object.freeze({
    ...names,
    hints: Object.freeze({ ...hints }),
    trusted,
    effect,
    destructive: hints.readOnlyHint !== true && hints.destructiveHint !== false,
    idempotent: effect === 'read' || effect === 'idempotent-write',
    hasOutputSchema,
  });
}

/**
 * The effect a trusted server's hints give a tool: `readOnlyHint: true` a read, `idempotentHint: true` an
 * idempotent write, anything else (no hints included: MCP's defaults) a write. Also the proxy's rule.
 */
export function trustedHintEffect(
  hints:
    | { readonly readOnlyHint?: boolean | undefined; readonly idempotentHint?: boolean | undefined }
    | undefined,
): ToolEffect {
  if (hints?.readOnlyHint === true) return 'read';
  return hints?.idempotentHint === true ? 'idempotent-write' : 'write';
}

/** The hints of a definition's `annotations` (already checked to be booleans when present). */
export function readHints(annotations: unknown): McpToolHints {
  const record = (typeof annotations === 'object' && annotations !== null ? annotations : {}) as Record<
    string,
    unknown
  >;
  const flag = (key: string) => (typeof record[key] === 'boolean' ? (record[key] as boolean) : undefined);
  return {
    readOnlyHint: flag('readOnlyHint'),
    destructiveHint: flag('destructiveHint'),
    idempotentHint: flag('idempotentHint'),
    openWorldHint: flag('openWorldHint'),
  };
}

// The proxy's reading of a tool's traits under its config: the same trust rule, with the config's lists.

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
