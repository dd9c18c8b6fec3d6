import type { EventSink } from '../core/tool-event.js';
import type { LimitScope } from './call-limits.js';
import type { ResolvedPolicy } from './policy.js';
import type { IdempotencyScope } from './idempotency/idempotency-scope.js';

/** What every call of one execution shares. */
export interface RunContext {
  readonly policy: ResolvedPolicy;
  readonly signal: AbortSignal | undefined;
  readonly data: unknown;
  readonly turnId: string | undefined;
  readonly sessionId: string | undefined;
  /** Milliseconds since an arbitrary origin (default `performance.now`). */
  readonly now: () => number;
  readonly events: EventSink;
  /** Records a caller callback that failed (the first one is kept for the outcome). */
  readonly callbackFailed: (callback: string, error: unknown) => void;
  /** Where this response's writes keep their idempotency records. */
  readonly idempotency: IdempotencyScope;
  /** Records a write refused because the store failed (the first one is kept for the outcome). */
  readonly storeFailed: (toolName: string, error: unknown) => void;
  /** Records a call refused by a limit when it ran (an idempotent write's claim counts it): the first is kept. */
  readonly limitReached: (
    toolName: string,
    limit: { readonly scope: LimitScope; readonly limit: number },
  ) => void;
}

/** One call as it runs: who it is, its arguments (as sent, and as the events show them), when it started. */
export interface RunningCall {
  readonly base: { readonly toolCallId: string; readonly toolName: string };
  /** The arguments as the model sent them (JSON text): an error that echoes them shows them (`toolFailure`). */
  readonly arguments: string;
  readonly argumentsSummary: string;
  readonly started: number;
}
