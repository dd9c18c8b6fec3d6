import type { GuardCall } from '../../../guard/guard-round.js';
import type { ProxyCallToolResult } from './mcp-shapes.js';

/** What came back from upstream for a forwarded call: a result (`isError` or not), or a failure with no result. */
export type UpstreamAnswer =
  | { readonly kind: 'result'; readonly result: ProxyCallToolResult }
  /** A JSON-RPC error, a timeout, a lost connection: `transient` when a later try may succeed. */
  | { readonly kind: 'failed'; readonly transient: boolean; readonly text: string };

/**
 * A session's call and its answer as the loop guard reads them (one call is one round). A result is read
 * by its text (see `resultText`), an `isError` one as a failure the model can act on; a failure with no
 * result by the chain's text, transient or not.
 */
export function guardCallOf(
  call: { readonly name: string; readonly text: string },
  answer: UpstreamAnswer,
): GuardCall {
  const base = { tool: call.name, arguments: call.text };
  if (answer.kind === 'failed')
    return { ...base, content: answer.text, errorClass: answer.transient ? 'transient' : 'invalid-input' };
  const content = resultText(answer.result);
  return answer.result.isError === true
    ? { ...base, content, errorClass: 'invalid-input' }
    : { ...base, content };
}

/**
 * The text the guard fingerprints for a result: its `structuredContent` when it has one (JSON, so the
 * loop hints' `ignoreFields` apply), the text of a lone text part, or the content parts as JSON.
 */
export function resultText(result: ProxyCallToolResult): string {
  if (result.structuredContent !== undefined) return jsonText(result.structuredContent);
  const only = result.content.length === 1 ? result.content[0] : undefined;
  if (only?.type === 'text' && typeof only.text === 'string') return only.text;
  return jsonText(result.content);
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    // Too deep to write (results come from JSON-RPC, so never a cycle): fingerprinted as empty.
    return '';
  }
}
