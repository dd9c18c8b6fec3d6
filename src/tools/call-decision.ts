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
