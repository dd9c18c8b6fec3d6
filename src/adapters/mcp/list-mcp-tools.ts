import { ToolwardenError } from '../../core/errors/toolwarden-error.js';
import type { McpClientPort, McpRequestOptions } from './mcp-client-port.js';

const MARKER = Symbol.for('toolwarden.error.McpListError');

/** Why reading the tool list failed (`MCP_LIST_ERROR`: the answer is not a `ListToolsResult`, or it never ends). */
export class McpListError extends ToolwardenError<'MCP_LIST_ERROR'> {
  override readonly name = 'McpListError';
  readonly [MARKER] = true;

  constructor(message: string) {
    super({ code: 'MCP_LIST_ERROR', message });
  }

  /** True for an `McpListError` of any copy of toolwarden (a marker, not the prototype). */
  static override isInstance(value: unknown): value is McpListError {
    return ToolwardenError.hasMarker(value, MARKER);
  }
}

/**
 * Every tool definition of the server, unread: all pages of `tools/list`, following `nextCursor`, at most
 * `maxPages` pages (a cursor that never ends, or that repeats, is an error, not a hang).
 */
export async function listMcpTools(
  port: McpClientPort,
  options: McpRequestOptions & { readonly maxPages: number },
): Promise<unknown[]> {
  const definitions: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < options.maxPages; page++) {
    const raw = await port.listTools(cursor, options);
    if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { tools?: unknown }).tools)) {
      throw new McpListError('The server answered tools/list without a tools array.');
    }
    const { tools, nextCursor } = raw as { tools: unknown[]; nextCursor?: unknown };
    definitions.push(...tools);
    if (nextCursor === undefined || nextCursor === null || nextCursor === '') return definitions;
    if (typeof nextCursor !== 'string')
      throw new McpListError('The server gave a nextCursor that is not a string.');
    if (seen.has(nextCursor)) throw new McpListError('The server gave the same nextCursor twice.');
    seen.add(nextCursor);
    cursor = nextCursor;
  }
  throw new McpListError(
    `The server's tool list has more than ${options.maxPages} pages (maxPages): it was not read to the end.`,
  );
}
