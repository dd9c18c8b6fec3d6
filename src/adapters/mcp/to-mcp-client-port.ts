import type { McpClientPort } from './mcp-client-port.js';
import { type SdkV1ClientLike, sdkV1Port } from './sdk-v1-port.js';
import { type SdkV2ClientLike, sdkV2Port } from './sdk-v2-port.js';

/**
 * Which line a client is, by what it has (no SDK class is imported): a port has `onToolsChanged`, a v2
 * `Client` `getProtocolEra`, a v1 `Client` `request`. Undefined for anything else.
 */
export function toMcpClientPort(client: unknown): McpClientPort | undefined {
  if ((typeof client !== 'object' && typeof client !== 'function') || client === null) return undefined;
  const has = (key: string) => typeof (client as Record<string, unknown>)[key] === 'function';
  if (has('onToolsChanged') && has('listTools') && has('callTool')) return client as McpClientPort;
  if (has('getProtocolEra') && has('listTools') && has('callTool'))
    return sdkV2Port(client as SdkV2ClientLike);
  if (has('request')) return sdkV1Port(client as SdkV1ClientLike);
  return undefined;
}
