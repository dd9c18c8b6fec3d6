import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The shape of a JSON-RPC 2.0 message, checked by hand rather than with the SDK's zod schema (a measured
 * share of each call's CPU): the SDK's `Protocol` then checks each request's params and each result against
 * its method's schema.
 */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return false;
  const id = message.id;
  const idOk = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
  const params = message.params;
  if (params !== undefined && (typeof params !== 'object' || params === null)) return false;
  if (typeof message.method === 'string') return id === undefined || idOk;
  if ('result' in message) return idOk && typeof message.result === 'object' && message.result !== null;
  // An error answer may have no id (it could not tell which request it was for).
  if (id !== undefined && !idOk) return false;
  const error = message.error as { code?: unknown; message?: unknown } | null | undefined;
  return (
    typeof error === 'object' &&
    error !== null &&
    Number.isInteger(error.code) &&
    typeof error.message === 'string'
  );
}
