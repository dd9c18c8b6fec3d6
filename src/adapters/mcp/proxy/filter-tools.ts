import type { ProxyConfig } from './proxy-config.js';
import { matchesAny } from './tool-pattern.js';

/** Whether the client may see and call a tool: not denied (deny wins), and allowed when there is an allow list. */
export function isToolVisible(name: string, config: Pick<ProxyConfig, 'allow' | 'deny'>): boolean {
  if (matchesAny(config.deny, name)) return false;
  return config.allow === undefined || matchesAny(config.allow, name);
}

/**
 * The tool list the client sees: the upstream's, with the tools the allow and deny lists exclude left out.
 * Every tool kept is the upstream's own object, unchanged (schemas, annotations, `_meta` and all), in the
 * upstream's order.
 */
export function filterTools<T extends { readonly name: string }>(
  tools: readonly T[],
  config: Pick<ProxyConfig, 'allow' | 'deny'>,
): T[] {
  return tools.filter((tool) => isToolVisible(tool.name, config));
}
