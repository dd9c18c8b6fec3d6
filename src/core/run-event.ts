import type { ErrorClass } from './error-class.js';
import type { LoopEvidence } from './guard-state.js';
import type { LoopOutcome, LoopUsage, StopEvidence, StopReason } from './loop-outcome.js';
import type { AssistantMessage } from './message.js';
import type { TokenUsage } from './model.js';
import type { ModelErrorTraits, ModelFailure } from './model-failure.js';
import type { ToolEvent } from './tool-event.js';
import type { ToolCallResult, ToolErrorCode } from './tool-execution-result.js';

/**
 * Everything a run reports, to one sink (`onEvent`) or as the stream's items. The chain's tool events are
 * part of it. No event carries the model's text, the arguments, the results or error messages unless the
 * caller opts in with `includeContent: true` (then `model-call-end`, `step-end` and `run-end` carry them too).
 * The model's deltas are content too: they are reported only with `streamDeltas: true`.
 */
export type RunEvent =
  | {
      readonly type: 'run-start';
      readonly runId: string;
      readonly sessionId?: string;
      readonly turnId?: string;
      /** True when the run continues a saved state (`runToolLoop({ from })`). */
      readonly resumed: boolean;
      /** The run's ceiling of model calls (the `maxRoundTrips` in force): a report sets it beside the rounds runs took. */
      readonly maxRoundTrips: number;
    }
  | { readonly type: 'step-start'; readonly round: number }
  | {
      readonly type: 'model-call-start';
      readonly round: number;
      readonly messages: number;
      readonly tools: number;
    }
  | {
      readonly type: 'model-call-end';
      readonly round: number;
      readonly usage: TokenUsage;
      readonly durationMs: number;
      readonly toolCalls: number;
      /** The failure's type (`name`), when the model failed. */
      readonly errorType?: string;
      readonly response?: AssistantMessage;
      readonly error?: unknown;
    }
  | ({
      /**
       * A model call failed transiently and is tried again after `delayMs` (`modelRetries`): what failed, by
       * its status, the provider's redacted error name, a network code or the timeout; the raw `error`
       * only with `includeContent`.
       */
      readonly type: 'model-call-retry';
      readonly round: number;
      /** The attempt about to start (2 for the first retry). */
      readonly attempt: number;
      readonly delayMs: number;
      /** The failure's type (`name`). */
      readonly errorType: string;
      readonly error?: unknown;
    } & Omit<ModelErrorTraits, 'retryable'>)
  | {
      /**
       * A piece of the model's text as it streams (only with `streamDeltas: true`, and a model that can
       * stream): the pieces of a round add up to the text of its `model-call-end` response.
       */
      readonly type: 'model-text-delta';
      readonly round: number;
      readonly delta: string;
    }
  | {
      /**
       * A piece of a tool call's raw arguments as they stream (only with `streamDeltas: true`). `index` is
       * the call's position in the round's calls (unless a later part says the provider runs the call: it
       * is left out of the round, and the calls after it move up); `toolCallId` is the model's own id,
       * which the loop may replace (missing, or used before). Untrusted text: nothing has checked it yet.
       */
      readonly type: 'model-tool-input-delta';
      readonly round: number;
      readonly index: number;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly delta: string;
    }
  | ToolEvent
  | {
      /**
       * The store failed (`StoreError`) while loading or saving the session's guard memory (the chain's
       * store failures for one call are `store-fail` events too, with `operation: 'call-count' | 'idempotency'`). On a load,
       * `failedOpen` says the run went on with the guard's memory of this request only (`onStoreFailure:
       * 'open'`); otherwise it stopped as `STORE_UNAVAILABLE`. A failed save loses only what this request's
       * guard learnt; the outcome stands.
       */
      readonly type: 'store-fail';
      readonly operation: 'guard-load' | 'guard-save';
      readonly failedOpen: boolean;
      readonly errorType: string;
      readonly error?: unknown;
    }
  | {
      readonly type: 'guard-warn';
      readonly round: number;
      readonly evidence: LoopEvidence;
      readonly nudged: boolean;
    }
  | {
      readonly type: 'step-end';
      readonly round: number;
      readonly usage: TokenUsage;
      /** Each call of the step, without its content. */
      readonly calls: readonly {
        readonly toolCallId: string;
        readonly toolName: string;
        readonly type: 'success' | 'error';
        readonly code?: ToolErrorCode;
        readonly errorClass?: ErrorClass;
      }[];
      readonly response?: AssistantMessage;
      readonly toolResults?: readonly ToolCallResult[];
    }
  | {
      readonly type: 'run-end';
      readonly runId: string;
      readonly outcome: LoopOutcome['type'];
      readonly reason?: StopReason;
      /**
       * What triggered the stop, without content, safe to log: a stop condition's `detail` is left out and
       * an error is named by its type only (its message may hold anything).
       */
      readonly evidence?:
        | Exclude<StopEvidence, { readonly kind: 'condition' } | { readonly kind: 'error' }>
        | { readonly kind: 'condition'; readonly name: string }
        | {
            readonly kind: 'error';
            readonly errorType: string;
            readonly callback?: string;
            /** A failed model call's status, redacted error name and attempts (no content). */
            readonly model?: ModelFailure;
          };
      /**
       * The calls an interrupted run waits on, as events show them: their arguments summarized (redacted)
       * and digested, never raw.
       */
      readonly awaiting?: readonly {
        readonly toolCallId: string;
        readonly toolName: string;
        readonly argumentsSummary: string;
        readonly argumentsDigest: string;
        /** Why it waits: `needs approval`, or the hook's reason. */
        readonly reason?: string;
      }[];
      readonly roundTrips: number;
      readonly toolCalls: number;
      readonly usage: LoopUsage;
      /** The whole outcome, with `includeContent: true`. */
      readonly result?: LoopOutcome;
    };

/** The `run-end` event. */
type RunEnd = Extract<RunEvent, { type: 'run-end' }>;

/** One call of a step, without its content. */
export type StepCallSummary = Extract<RunEvent, { type: 'step-end' }>['calls'][number];

/** A call an interrupted run waits on, as events show it: its arguments summarized (redacted) and digested. */
export type AwaitingCall = NonNullable<RunEnd['awaiting']>[number];

/** A stop's evidence without its content, safe to log (`run-end`'s `evidence`). */
export type StopEvidenceSummary = NonNullable<RunEnd['evidence']>;

/** Where a run's events go (the run's and its tools'). */
export type RunEventListener = (event: RunEvent) => void;
