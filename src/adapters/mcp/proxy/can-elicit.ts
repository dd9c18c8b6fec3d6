/**
 * Whether a client declared form elicitation, from its capabilities (a 2025 session's `initialize`, or a
 * 2026-07-28 request's `_meta`): an empty `elicitation` is form mode, as in the spec's first version.
 */
export function canElicit(capabilities: { readonly elicitation?: unknown } | undefined): boolean {
  const elicitation = capabilities?.elicitation as
    | { readonly form?: unknown; readonly url?: unknown }
    | undefined;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}
