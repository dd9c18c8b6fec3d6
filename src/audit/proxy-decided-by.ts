/**
 * Who let a call run, or refused it, in the MCP proxy, as its audit record says it (`decidedBy`): the user
 * asked through MCP elicitation, or the config rule that runs a call whose confirmation could not be asked.
 */
export const DECIDED_BY_USER = 'user (MCP elicitation)';
export const DECIDED_BY_CONFIG = 'config: confirm.ifNoElicitation allow-and-audit (not confirmed)';
