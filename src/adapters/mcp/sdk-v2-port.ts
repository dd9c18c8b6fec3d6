import { listenForNotification } from './listen-for-notification.js';
import type { McpClientPort } from './mcp-client-port.js';
import { withTimeout } from './sdk-v1-port.js';

/** A v2 `Client` (`@modelcontextprotocol/client@2`), as far as toolwarden uses it (typed loosely, like v1's). */
export interface SdkV2ClientLike {
  readonly listTools: (...args: never[]) => Promise<unknown>;
  readonly callTool: (...args: never[]) => Promise<unknown>;
  readonly getProtocolEra: (...args: never[]) => unknown;
}

type Method = (params: object | undefined, options: object) => Promise<unknown>;

/**
 * The v2 client as a port. v2's `callTool` does not check `isError` results against the output schema;
 * `listTools` reads one page when given a cursor, and is asked past its response cache (`refresh`), so a
 * `listChanged` refresh sees the new list.
 */
export function sdkV2Port(client: SdkV2ClientLike): McpClientPort {
  const listTools = client.listTools as unknown as Method;
  const callTool = client.callTool as unknown as Method;
  return {
    listTools: (cursor, { signal, timeout }) =>
      listTools.call(
        client,
        cursor === undefined ? undefined : { cursor },
        withTimeout({ signal, cacheMode: 'refresh' }, timeout),
      ),
    callTool: (name, args, { signal, timeout }) =>
      callTool.call(client, { name, arguments: args }, withTimeout({ signal }, timeout)),
    onToolsChanged: (listener) => listenForNotification(client, 'notifications/tools/list_changed', listener),
  };
}
