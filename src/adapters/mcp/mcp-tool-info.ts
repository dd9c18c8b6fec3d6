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
  /** May destroy or overwrite by MCP's defaults on the hints as given: ask for approval here (`options.tool`). */
  readonly destructive: boolean;
  /** Calling it twice with the same arguments does no more than once (a trusted read or idempotent write). */
  readonly idempotent: boolean;
  readonly hasOutputSchema: boolean;
}

/**
 * The annotation trust rule. The spec calls annotations hints, untrusted unless the server is trusted.
 * - untrusted (the default): the effect is `unknown`, whatever the hints say: never retried, never
 *   answered from a record, judged by the loop guard as a call that may change something (see
 *   docs/effects.md). A server cannot buy retries, parallel runs or a replayed answer by saying
 *   `readOnlyHint: true`, and a read of it is never answered with a stale result;
 * - trusted: `readOnlyHint: true` makes a `read` tool (retried, run in parallel, identical calls of a
 *   response share one run); `idempotentHint: true` an `idempotent-write` (retried: doing it twice does no
 *   more than once); any other tool a `write`.
 * `destructive` is MCP's defaults applied to the hints as given (not read-only, and not marked
 * `destructiveHint: false`), trusted or not: it decides whom to ask, and a server that says nothing is
 * asked about. An untrusted server can lie to avoid a question: name such tools in `options.tool`.
 */
export function describeMcpTool(
  names: { readonly originalName: string; readonly name: string; readonly title: string | undefined },
  hints: McpToolHints,
  trusted: boolean,
  hasOutputSchema: boolean,
): McpToolInfo {
  const effect = trusted ? trustedHintEffect(hints) : 'unknown';
  return Object.freeze({
    ...names,
    hints: Object.freeze({ ...hints }),
    trusted,
    effect,
    destructive: hints.readOnlyHint !== true && hints.destructiveHint !== false,
    idempotent: effect === 'read' || effect === 'idempotent-write',
    hasOutputSchema,
  });
}

/**
 * The effect a trusted server's hints give a tool: `readOnlyHint: true` a read, `idempotentHint: true` an
 * idempotent write, anything else (no hints included: MCP's defaults) a write. Also the proxy's rule.
 */
export function trustedHintEffect(
  hints:
    | { readonly readOnlyHint?: boolean | undefined; readonly idempotentHint?: boolean | undefined }
    | undefined,
): ToolEffect {
  if (hints?.readOnlyHint === true) return 'read';
  return hints?.idempotentHint === true ? 'idempotent-write' : 'write';
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
