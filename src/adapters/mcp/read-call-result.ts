import { McpCallError } from './mcp-call-error.js';
import type { McpContentPart, McpToolResult } from './mcp-tool-result.js';

export type { McpContentPart, McpToolResult } from './mcp-tool-result.js';

/** Content parts kept from one result, at most: the rest are dropped (a result of a million parts is hostile). */
const MAX_PARTS = 1_000;

/**
 * Reads a `tools/call` result without trusting it: an object with a `content` array of typed parts
 * (or none, when `structuredContent` is there), and `isError` a boolean when present. Anything else
 * is `McpCallError` of kind `broken`: the server broke the protocol.
 */
export function readCallResult(toolName: string, raw: unknown): McpToolResult {
  const broken = (problem: string) =>
    new McpCallError({
      kind: 'broken',
      toolName,
      message: `The server's answer to tools/call "${toolName.slice(0, 64)}" is not a CallToolResult: ${problem}.`,
    });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw broken(`got ${describe(raw)}`);
  const record = raw as Record<string, unknown>;
  const { content, structuredContent, isError, _meta } = record;
  if (isError !== undefined && typeof isError !== 'boolean') throw broken(`isError is ${describe(isError)}`);
  if (content === undefined && structuredContent === undefined) throw broken('it has no content');
  if (content !== undefined && !Array.isArray(content)) throw broken(`content is ${describe(content)}`);
  const parts = (content ?? []) as unknown[];
  for (const [index, part] of parts.slice(0, MAX_PARTS).entries()) {
    if (typeof part !== 'object' || part === null || Array.isArray(part))
      throw broken(`content[${index}] is ${describe(part)}`);
    if (typeof (part as { type?: unknown }).type !== 'string') throw broken(`content[${index}] has no type`);
  }
  return Object.freeze({
    content: Object.freeze(parts.slice(0, MAX_PARTS) as McpContentPart[]),
    ...(structuredContent === undefined ? {} : { structuredContent }),
    isError: isError === true,
    ...(_meta === undefined ? {} : { _meta }),
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
