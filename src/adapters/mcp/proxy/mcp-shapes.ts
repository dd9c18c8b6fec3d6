import type { McpProxy } from '../mcp-proxy.js';

/**
 * The shapes the proxy's core reads, typed structurally so that neither the v1 SDK's nor the v2 SDK's
 * classes are needed: a `Tool` of `tools/list` and a `CallToolResult` of `tools/call` from either line
 * satisfy them. Keys the core does not read (`title`, `icons`, `execution`, `_meta`, …) ride along untouched.
 */
export type ProxiedTool = McpProxy['tools'][number];

/** One content part of a result (`text`, `image`, `audio`, `resource`, `resource_link`). */
export interface ProxyContentPart {
  readonly type: string;
  readonly text?: string;
}

/** A `CallToolResult` of `tools/call`, as the proxy reads and answers it. */
export interface ProxyCallToolResult {
  readonly content: readonly ProxyContentPart[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean | undefined;
  readonly _meta?: Readonly<Record<string, unknown>> | undefined;
}

/** The `_meta` key under which the proxy's own results carry toolwarden's code, for programs to read. */
export const CODE_META_KEY = 'toolwarden/code';

/** The `_meta` key of a refusal that may pass later (`RATE_LIMITED`): in how many ms to try again. */
export const RETRY_AFTER_META_KEY = 'toolwarden/retryAfterMs';
