import type { Refusal } from './call-decision.js';
import { CODE_META_KEY, type ProxyCallToolResult, RETRY_AFTER_META_KEY } from './mcp-shapes.js';

/**
 * The `CallToolResult` the client gets for a refusal: an `isError` result (never a JSON-RPC error, which
 * clients show as a crash), its text the refusal's, its code also under `_meta` for programs. It has no
 * `structuredContent`, so no client checks it against the tool's `outputSchema`.
 */
export function refusalResult(refusal: Refusal): ProxyCallToolResult {
  return {
    content: [{ type: 'text', text: refusal.text }],
    isError: true,
    _meta: {
      [CODE_META_KEY]: refusal.code,
      ...(refusal.retryAfterMs === undefined ? {} : { [RETRY_AFTER_META_KEY]: refusal.retryAfterMs }),
    },
  };
}

/**
 * A result with a note for the model beside it (the loop guard's): the upstream's content kept as it is,
 * the note one more text part after it, everything else (structured content, `isError`, `_meta`) untouched.
 */
export function withNote<R extends ProxyCallToolResult>(result: R, note: string): R {
  return { ...result, content: [...result.content, { type: 'text', text: note }] };
}
