import type { ErrorClass } from '../../core/error-class.js';
import { McpCallError, type McpFailureKind } from './mcp-call-error.js';

const TRANSIENT_CODES = new Set<number | string>([
  -32000, // ConnectionClosed (v1)
  -32001, // RequestTimeout (v1)
  'REQUEST_TIMEOUT',
  'CONNECTION_CLOSED',
  'SEND_FAILED',
  'NOT_CONNECTED',
]);
const BROKEN_CODES = new Set<number | string>([
  -32700, // ParseError
  -32600, // InvalidRequest
  -32601, // MethodNotFound
  'INVALID_RESULT',
  'UNSUPPORTED_RESULT_TYPE',
  'CAPABILITY_NOT_SUPPORTED',
  'NOT_INITIALIZED',
]);

/** The kind of a thrown SDK error, by its `code` (read without trusting its getter). */
export function mcpFailureKind(error: unknown): {
  kind: McpFailureKind;
  rpcCode: number | string | undefined;
} {
  const rpcCode = readCode(error);
  // The v1 SDK rejects a request on a closed transport with a plain `Error('Not connected')`.
  if (rpcCode === undefined)
    return {
      kind: isNotConnected(error) ? 'transient' : isUnreadableAnswer(error) ? 'broken' : 'protocol',
      rpcCode,
    };
  // The HTTP transports (the SDK's, the proxy's own) say -1 for an answer of a content type they cannot read.
  if (rpcCode === -1 && (nameOf(error) === 'StreamableHTTPError' || nameOf(error) === 'UpstreamHttpError'))
    return { kind: 'broken', rpcCode };
  if (TRANSIENT_CODES.has(rpcCode)) return { kind: 'transient', rpcCode };
  if (BROKEN_CODES.has(rpcCode)) return { kind: 'broken', rpcCode };
  // Any other number is the server's own answer (-32602, -32603, an application code); any other SDK string is the SDK's.
  return { kind: typeof rpcCode === 'number' ? 'protocol' : 'broken', rpcCode };
}

/** How the chain treats each kind: the tool's `classifyError` (undefined: not an MCP failure, the policy decides). */
export function classifyMcpFailure(error: unknown): ErrorClass | undefined {
  if (!McpCallError.isInstance(error)) return undefined;
  const kind = error.kind;
  switch (kind) {
    case 'tool':
    case 'protocol':
      return 'invalid-input';
    case 'transient':
      return 'transient';
    case 'broken':
      return 'fatal';
    default: {
      const unreachable: never = kind;
      throw new TypeError(`unknown MCP failure kind ${String(unreachable)}`);
    }
  }
}

function readCode(error: unknown): number | string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  try {
    const code = (error as { code?: unknown }).code;
    return (typeof code === 'number' && Number.isInteger(code)) || typeof code === 'string'
      ? code
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An answer that is no MCP message at all (the body not JSON, JSON that is not JSON-RPC, as the SDK's
 * parse throws them): the server is broken, not the call's arguments.
 */
function isUnreadableAnswer(error: unknown): boolean {
  const name = nameOf(error);
  return name === 'SyntaxError' || name === 'ZodError';
}

function nameOf(error: unknown): string | undefined {
  try {
    if (!(error instanceof Error)) return undefined;
    return error.constructor?.name === 'StreamableHTTPError' ? 'StreamableHTTPError' : error.name;
  } catch {
    return undefined;
  }
}

function isNotConnected(error: unknown): boolean {
  try {
    return error instanceof Error && error.message === 'Not connected';
  } catch {
    return false;
  }
}
