/** What a tool's `execute` receives besides its arguments. Nothing here is shown to the model. */
export interface ToolContext {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The caller's turn and session ids, when it gave them. */
  readonly turnId: string | undefined;
  readonly sessionId: string | undefined;
  /** Aborted on timeout or when the caller aborts: pass it on to fetch, database drivers, child tasks. */
  readonly signal: AbortSignal;
  /** 1 for the first run, 2 for the first retry, ... */
  readonly attempt: number;
  /** Caller data (a user, a tenant, a database handle): never shown to the model. */
  readonly data: unknown;
}
