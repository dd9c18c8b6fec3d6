import type { AssistantMessage } from '../core/message.js';
import type { EventSink, ToolEventListener } from '../core/tool-event.js';
import type { LimitScope } from './call-limits.js';
import type { IdempotencyScope } from './idempotency/idempotency-scope.js';
import type { TurnCounts } from './limits.js';
import type { ResolvedPolicy } from './policy.js';
import type { SettledDecision } from './resume-decision.js';

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

/** One response's calls, and the context they run in. */
export interface CallsRequest {
  /** The model's response; its calls must be normalized (see `normalizeToolCalls`). */
  readonly assistant: AssistantMessage;
  /** The turn's counts, updated as calls are admitted; undefined: no turn limits apply. */
  readonly counts?: TurnCounts | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly data?: unknown;
  readonly turnId?: string | undefined;
  readonly sessionId?: string | undefined;
  /** The loop's run: without a session or a turn, the scope of its writes' idempotency records. */
  readonly runId?: string | undefined;
  /** The owner of the idempotency records in place of the session (see `SingleCallOptions.idempotencyScope`). */
  readonly idempotencyScope?: string | undefined;
  readonly now?: (() => number) | undefined;
  readonly onEvent?: ToolEventListener | undefined;
  /** Events carry the unredacted error and offending value (default false). */
  readonly includeContent?: boolean | undefined;
  /** Decisions for calls of an interrupted response, by call id, checked: their hooks are not asked again. */
  readonly decisions?: ReadonlyMap<string, SettledDecision> | undefined;
}

/** A caller's callback that threw or answered nonsense. */
export interface CallbackFailure {
  readonly callback: string;
  readonly error: unknown;
}
