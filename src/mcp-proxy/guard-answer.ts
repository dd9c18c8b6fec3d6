import type { ToolCall } from '../core/message.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import type { ProxyCallToolResult } from './mcp-shapes.js';

/** What came back from upstream for a forwarded call: a result (`isError` or not), or a failure with no result. */
export type UpstreamAnswer =
  | { readonly kind: 'result'; readonly result: ProxyCallToolResult }
  /** A JSON-RPC error, a timeout, a lost connection: `transient` when a later try may succeed. */
  | { readonly kind: 'failed'; readonly transient: boolean; readonly text: string };

/** The arguments as text, as the guard fingerprints them (canonical form is the guard's job). */
export function argumentsText(args: unknown): string {
  try {
    return JSON.stringify(args ?? {}) ?? '';
  } catch {
    // Too deep to write (arguments come from JSON-RPC, so never a cycle): fingerprinted as empty.
    return '';
  }
}

/**
 * The text the guard fingerprints for a result: its `structuredContent` when it has one (JSON, so the
 * loop hints' `ignoreFields` apply), the text of a lone text part, or the content parts as JSON.
 */
export function resultText(result: ProxyCallToolResult): string {
  if (result.structuredContent !== undefined) return argumentsText(result.structuredContent);
  const only = result.content.length === 1 ? result.content[0] : undefined;
  if (only?.type === 'text' && typeof only.text === 'string') return only.text;
  return argumentsText(result.content);
}

/** A session's call and its answer in the shapes `guardRound` reads (one call is one round). */
export function guardRecordOf(
  name: string,
  args: unknown,
  answer: UpstreamAnswer,
  id: string,
): { call: ToolCall; result: ToolCallResult } {
  const call: ToolCall = { id, name, arguments: argumentsText(args) };
  const base = { toolCallId: id, toolName: name, attempts: 1, durationMs: 0 };
  if (answer.kind === 'result' && answer.result.isError !== true) {
    const content = resultText(answer.result);
    return { call, result: { ...base, type: 'success', content, value: answer.result, truncated: false } };
  }
  const transient = answer.kind === 'failed' && answer.transient;
  const content = answer.kind === 'result' ? resultText(answer.result) : answer.text;
  return {
    call,
    result: {
      ...base,
      type: 'error',
      content,
      code: transient ? 'TOOL_UNAVAILABLE' : 'TOOL_ERROR',
      errorClass: transient ? 'transient' : 'invalid-input',
      error: undefined,
    },
  };
}
