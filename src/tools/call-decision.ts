/**
 * What happens to a call before it runs, as a tool's or the policy's `decide` answers. `run`: it runs.
 * `ask`: it waits for a person (the execution reports it as pending, to be resumed with a decision; the
 * calls of the response that need none run). `deny`: it never runs, the model is told it is not permitted
 * (the policy's `deniedText`), and the reason goes to the call's events and audit record.
 * When the tool and the policy both answer, deny beats ask beats run.
 */
export type CallDecision =
  | { readonly type: 'run' }
  | { readonly type: 'ask'; readonly reason?: string; readonly payload?: unknown }
  | { readonly type: 'deny'; readonly reason: string };

/** What a `decide` hook knows of the call besides the call itself: the caller's, never the model's. */
export interface DecisionContext {
  /** The turn the call belongs to, when the caller gave one. */
  readonly turnId: string | undefined;
  /** The session (conversation) the call belongs to, when the caller gave one. */
  readonly sessionId: string | undefined;
  /** Caller data (roles, a tenant), as the tool would receive it. */
  readonly data: unknown;
  /** The execution's signal, when the caller gave one. */
  readonly signal: AbortSignal | undefined;
}
