import { listenForNotification } from './listen-for-notification.js';
import type { McpClientPort } from './mcp-client-port.js';

/** A v1 `Client` (`@modelcontextprotocol/sdk@1`), as far as toolwarden uses it. */
export interface SdkV1ClientLike {
  /** `request(request, resultSchema, options)`, typed loosely so that the SDK's generic method fits. */
  readonly request: (...args: never[]) => Promise<unknown>;
}

type RequestFunction = (
  request: { method: string; params: object },
  resultSchema: unknown,
  options: object,
) => Promise<unknown>;

/**
 * Takes any result as it is: the SDK's own parsing (a zod-compatible `safeParse`) is skipped, so toolwarden
 * reads the result itself and a hostile one is its error, not the SDK's.
 */
const AS_SENT = Object.freeze({ safeParse: (data: unknown) => ({ success: true, data }) });

/**
 * The v1 client as a port. Calls go through `request`, not `callTool`: v1.32's `callTool` checks
 * `structuredContent` against the cached `outputSchema` even on an `isError` result and throws `-32602`
 * (modelcontextprotocol/typescript-sdk #1943); toolwarden checks the output contract itself, on success only.
 */
export function sdkV1Port(client: SdkV1ClientLike): McpClientPort {
  const request = sdkV1Request(client);
  return {
    listTools: (cursor, { signal, timeout }) =>
      request('tools/list', cursor === undefined ? {} : { cursor }, withTimeout({ signal }, timeout)),
    callTool: (name, args, { signal, timeout }) =>
      request('tools/call', { name, arguments: args }, withTimeout({ signal }, timeout)),
    onToolsChanged: (listener) => listenForNotification(client, 'notifications/tools/list_changed', listener),
  };
}

/** Any request of the v1 client, its result taken as sent (unread, unvalidated by the SDK). */
export function sdkV1Request(
  client: SdkV1ClientLike,
): (method: string, params: object, options: object) => Promise<unknown> {
  const send = client.request as unknown as RequestFunction;
  return (method, params, options) => send.call(client, { method, params }, AS_SENT, options);
}

/** The options with `timeout` only when there is one (the SDK treats `timeout: undefined` as a value). */
export function withTimeout<T extends object>(options: T, timeout: number | undefined): T {
  return timeout === undefined ? options : { ...options, timeout };
}
