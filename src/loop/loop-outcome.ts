import type { ToolCallResult } from '../chain/tool-execution-result.js';
import type { AssistantMessage, Message } from '../messages/message.js';
import type { TokenUsage } from '../model/model.js';
import type { LoopEvidence } from './guard-types.js';

export type StopReason =
  | 'max-round-trips'
  | 'budget-exhausted'
  | 'loop-detected'
  | 'tool-limit'
  | 'aborted'
  /** The model failed: it threw, or answered with neither text nor tool calls. */
  | 'model-error'
  /** A tool failed with a fatal error (a defect): the full record is kept. */
  | 'tool-fatal';

/** What triggered a stop. */
export type StopEvidence =
  | ({ readonly kind: 'loop' } & LoopEvidence)
  | {
      readonly kind: 'ceiling';
      readonly limit: 'round-trips' | 'tokens' | 'time' | 'cost';
      readonly max: number;
      readonly used: number;
    }
  | { readonly kind: 'error'; readonly error: unknown };

/** One model call and what came of it. */
export interface LoopStep {
  readonly round: number;
  readonly response: AssistantMessage;
  readonly usage: TokenUsage;
  /** The tool results of this round (empty when the model answered). */
  readonly toolResults: readonly ToolCallResult[];
}

export interface LoopUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

export interface OutcomeBase {
  /** The whole conversation: well-formed (every tool call has exactly one tool response). */
  readonly messages: readonly Message[];
  readonly steps: readonly LoopStep[];
  readonly usage: LoopUsage;
  /** Model calls made, the last answer (`finalAnswer`) included. */
  readonly roundTrips: number;
  /** Tool calls made, over all rounds. */
  readonly toolCalls: number;
  /** Every tool result, in order: the partial results of a stopped request. */
  readonly toolResults: readonly ToolCallResult[];
}

/** The loop's result, a value: completed with the final text, or stopped with a reason and evidence. */
export type LoopOutcome =
  | (OutcomeBase & { readonly type: 'completed'; readonly text: string })
  | (OutcomeBase & {
      readonly type: 'stopped';
      readonly reason: StopReason;
      readonly evidence: StopEvidence;
      /** The last answer (tools disabled) when asked for, else the fallback text. */
      readonly text: string;
      /** Model calls spent inside the detected loop, beyond the first occurrence. */
      readonly wastedRoundTrips: number;
    });
