import type { StopReason } from './errors/error-codes.js';
import type { LoopEvidence } from './guard-state.js';
import type { AssistantMessage, Message } from './message.js';
import type { TokenUsage } from './model.js';
import type { ModelFailure } from './model-failure.js';
import type { LoopUsage, PendingCall, RunState } from './run-state.js';
import type { LimitScope, ToolCallResult } from './tool-execution-result.js';

/**
 * Why a run stopped: a code of the one code table (see `ERROR_CODES`): MAX_ROUND_TRIPS, BUDGET_EXHAUSTED,
 * LOOP_DETECTED, TOOL_CALL_LIMIT, ABORTED, MODEL_ERROR (the model threw, or answered with neither text nor
 * tool calls), TOOL_FATAL (a tool's defect), STOP_CONDITION (a `stopIf` said stop), CALLBACK_FAILED (a
 * callback the caller passed failed: the run rejects with `CallbackError` carrying the outcome),
 * STORE_UNAVAILABLE (the store failed where the run cannot go on without it).
 */
export type { StopReason } from './errors/error-codes.js';
export type { LoopUsage } from './run-state.js';

/** What triggered a stop. */
export type StopEvidence =
  | ({ readonly kind: 'loop' } & LoopEvidence)
  | {
      readonly kind: 'ceiling';
      readonly limit: 'round-trips' | 'tokens' | 'time' | 'cost';
      readonly max: number;
      readonly used: number;
    }
  | {
      readonly kind: 'limit';
      /** The limit of one tool's calls in the turn, or of all calls together. */
      readonly scope: LimitScope;
      /** The tool whose call met the limit. */
      readonly tool: string;
      readonly limit: number;
    }
  | { readonly kind: 'condition'; readonly name: string; readonly detail?: unknown }
  | {
      readonly kind: 'error';
      readonly error: unknown;
      readonly callback?: string;
      /** A failed model call (`MODEL_ERROR`): its status, the provider's error name, the attempts made, why no more. */
      readonly model?: ModelFailure;
    };

/** One model call and what came of it. */
export type LoopStep = LoopOutcome['steps'][number];

/** The loop's result, a value: completed, stopped with a reason and evidence, or interrupted waiting for decisions. */
export type LoopOutcome = {
  /** The run's id (`state.runId`): with a store, an interrupted run is kept under it (`runToolLoop({ from: { runId } })`). */
  readonly runId: string;
  /** The whole conversation: well-formed (every tool call has exactly one tool response), except the calls an interrupted run waits on (the answers of the others follow its assistant message). */
  readonly messages: readonly Message[];
  /** The steps run by this process (since the start, or since the resume): one model call each, and what came of it. */
  readonly steps: readonly {
    /** The run's round trip this step was (keeps counting across a pause and resume). */
    readonly round: number;
    readonly response: AssistantMessage;
    readonly usage: TokenUsage;
    /** The tool results of this round (empty when the model answered). */
    readonly toolResults: readonly ToolCallResult[];
  }[];
  /** Over the whole run, resumed parts included. */
  readonly usage: LoopUsage;
  /** Model calls made in the whole run, the last answer (`finalAnswer`) included. */
  readonly roundTrips: number;
  /** Tool calls made in the whole run. */
  readonly toolCalls: number;
  /** Every tool result of the steps run by this process, in order: the partial results of a stopped request. */
  readonly toolResults: readonly ToolCallResult[];
  /** The run as plain JSON: save it, and `runToolLoop({ from: state })` continues it (in any process). */
  readonly state: RunState;
} & (
  | { readonly type: 'completed'; readonly text: string }
  | {
      readonly type: 'stopped';
      readonly reason: StopReason;
      readonly evidence: StopEvidence;
      /** The last answer (tools disabled) when asked for, else the handoff's text, else the fallback text. */
      readonly text: string;
      /** Model calls spent inside the detected loop, beyond the first occurrence. */
      readonly wastedRoundTrips: number;
    }
  | {
      readonly type: 'interrupted';
      /** The calls waiting for a decision. The other calls of their round ran: their answers are in `messages`. */
      readonly pending: readonly PendingCall[];
    }
);
