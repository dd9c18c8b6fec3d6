import { DEFAULT_READ_RETRIES } from '../../defaults.js';
import type { ToolEffect } from '../../tools/define-tool.js';

/** The hints a server gave (`annotations`), as booleans; absent ones are undefined. */
export interface McpToolHints {
  readonly readOnlyHint: boolean | undefined;
  readonly destructiveHint: boolean | undefined;
  readonly idempotentHint: boolean | undefined;
  readonly openWorldHint: boolean | undefined;
}

/** What toolwarden made of one server tool: shown to `options.tool` and kept on the handle. */
export interface McpToolInfo {
  /** The name on the server. */
  readonly originalName: string;
  /** The provider-legal name the model calls it by. */
  readonly name: string;
  readonly title: string | undefined;
  readonly hints: McpToolHints;
  /** Whether the hints were believed (`options.trusted`). */
  readonly trusted: boolean;
  readonly effect: ToolEffect;
  /** May destroy or overwrite: ask for approval here (`options.tool`). Untrusted: every write is. */
  readonly destructive: boolean;
  /** Calling it twice with the same arguments does no more than once: a transient failure is retried. */
  readonly idempotent: boolean;
  readonly hasOutputSchema: boolean;
}

/**
 * The annotation trust rule. The spec calls annotations hints, untrusted unless the server is trusted,
 * and gives their defaults for a tool that says nothing: not read-only, destructive, not idempotent.
 * - untrusted (the default): every tool is taken at those defaults, whatever it says: a `write` tool
 *   (run one at a time, not retried, identical calls of a session run once), destructive, not idempotent;
 *   a server cannot buy retries or parallel runs by saying `readOnlyHint: true`;
 * - trusted: `readOnlyHint: true` makes a `read` tool (retried, run in parallel, identical calls of a
 *   response share one run); a write is destructive unless `destructiveHint: false`; `idempotentHint: true`
 *   lets a write be retried after a transient failure (doing it twice does no more than once).
 */
export function describeMcpTool(
  names: { readonly originalName: string; readonly name: string; readonly title: string | undefined },
  hints: McpToolHints,
  trusted: boolean,
  hasOutputSchema: boolean,
): McpToolInfo {
  const readOnly = trusted && hints.readOnlyHint === true;
  return Object.freeze({
    ...names,
    hints: Object.freeze({ ...hints }),
    trusted,
    effect: readOnly ? 'read' : 'write',
    destructive: !readOnly && (!trusted || hints.destructiveHint !== false),
    idempotent: readOnly || (trusted && hints.idempotentHint === true),
    hasOutputSchema,
  });
}

/** The retries a tool gets from its info: an idempotent write is retried like a read. */
export function retriesFor(info: McpToolInfo): number | undefined {
  return info.effect === 'write' && info.idempotent ? DEFAULT_READ_RETRIES : undefined;
}

/** The hints of a definition's `annotations` (already checked to be booleans when present). */
export function readHints(annotations: unknown): McpToolHints {
  const record = (typeof annotations === 'object' && annotations !== null ? annotations : {}) as Record<
    string,
    unknown
  >;
  const flag = (key: string) => (typeof record[key] === 'boolean' ? (record[key] as boolean) : undefined);
  return {
    readOnlyHint: flag('readOnlyHint'),
    destructiveHint: flag('destructiveHint'),
    idempotentHint: flag('idempotentHint'),
    openWorldHint: flag('openWorldHint'),
  };
}
