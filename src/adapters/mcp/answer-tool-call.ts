import { CODE_META_KEY, type ProxyCallToolResult } from './proxy/mcp-shapes.js';
import { type ProxyCallContext, proxyCall } from './proxy-call.js';

type SdkTypes = typeof import('@modelcontextprotocol/sdk/types.js');

/**
 * One `tools/call` as a client is answered, on either protocol: `proxyCall`'s result, or an `isError`
 * result when it threw or is not a valid `CallToolResult` (an SDK would send a throw as JSON-RPC -32603,
 * which clients show as a crash, and throws on a result that fails its schema).
 */
export async function answerToolCall(
  context: ProxyCallContext,
  types: SdkTypes,
  name: string,
  args: unknown,
  signal: AbortSignal,
): Promise<ProxyCallToolResult> {
  let result: ProxyCallToolResult;
  try {
    result = await proxyCall(context, name, args, signal);
  } catch {
    result = failure('TOOL_ERROR', 'The proxy could not run this call.');
  }
  if (!types.CallToolResultSchema.safeParse(result).success)
    result = failure('TOOL_ERROR', "The server's answer is not a valid tool result.");
  return result;
}

function failure(code: string, text: string): ProxyCallToolResult {
  return { content: [{ type: 'text', text }], isError: true, _meta: { [CODE_META_KEY]: code } };
}
