import { sanitizeName } from '../../../redact/redact.js';
import { needsConfirmation } from '../mcp-tool-info.js';
import type { ProxiedTool } from './mcp-shapes.js';
import type { ProxyConfig } from './proxy-config.js';

/** Tool names a session's notice lists at most; the rest are counted. */
const MAX_LISTED_TOOLS = 10;

/** What the operator can change, said in every notice about a client that cannot confirm. */
const HOW_TO_CHANGE =
  'set confirm.ifNoElicitation to "allow-and-audit" (runs them unconfirmed, each recorded in the audit log), or list the tools to confirm in confirm.tools, to change this';

/**
 * The operator's line for a call refused because it needs the user's confirmation and the client cannot
 * ask (no elicitation, `confirm.ifNoElicitation: "deny"`): which tool, why it needs a yes, and the keys
 * that change it. The proxy says it once per tool.
 */
export function cannotConfirmNotice(
  name: string,
  tool: ProxiedTool | undefined,
  config: ProxyConfig,
): string {
  return `refused ${sanitizeName(name)}: it needs the user's confirmation (${confirmReason(tool, config)}) and this client cannot ask (no elicitation); ${HOW_TO_CHANGE}`;
}

/**
 * The operator's line when a session's client turns out to have no elicitation: the tools whose calls
 * will be refused (or, under `allow-and-audit`, run unconfirmed); undefined when no tool needs a yes.
 */
export function noElicitationNotice(tools: readonly ProxiedTool[], config: ProxyConfig): string | undefined {
  if (config.confirm === false) return undefined;
  const names = tools.filter((tool) => needsConfirmation(tool.name, tool, config)).map((tool) => tool.name);
  if (names.length === 0) return undefined;
  const listed = names.slice(0, MAX_LISTED_TOOLS).map((name) => sanitizeName(name));
  const more = names.length - listed.length;
  const which = `${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  const head = `this client cannot ask the user for confirmation (no elicitation): ${which}`;
  return config.confirm.ifNoElicitation === 'deny'
    ? `${head} will be refused (PERMISSION_DENIED); ${HOW_TO_CHANGE}`
    : `${head} will run unconfirmed, each with an audit record (confirm.ifNoElicitation: "allow-and-audit")`;
}

/** Why a tool needs confirmation under the config, in the config's words. */
function confirmReason(tool: ProxiedTool | undefined, config: ProxyConfig): string {
  if (config.confirm === false || config.confirm.tools !== 'destructive') return 'confirm.tools names it';
  if (tool?.annotations?.destructiveHint === true) return 'the server marks it destructiveHint: true';
  return "trustAnnotations: by MCP's defaults it is destructive, being neither readOnlyHint: true nor destructiveHint: false";
}
