import type { ErrorClass } from './error-class.js';
import type { Message } from './message.js';
import type { PendingCall } from './pending-call.js';

/** The result of one call: a success or a failure, each with the call, its attempts and duration. */
export type ToolCallResult = {
  readonly toolCallId: string;
  /** The name the model asked for (sanitized). */
  readonly toolName: string;
  /** The text the model sees in the tool message. */
  readonly content: string;
  /** How many times the tool's execute ran (0 when it never did). */
  readonly attempts: number;
  readonly durationMs: number;
  /**
   * Set when this call did not run because an identical call to the same read tool in the same response
   * did: the id of that call, whose result this is (same content, value or failure; `attempts` and
   * `durationMs` are 0 here).
   */
  readonly sharedWith?: string;
  /**
   * Set when this write did not run because an identical call (by its idempotency key) ran before: the id
   * of that call, whose recorded result this is (`attempts` is 0; the content says it was already done).
   */
  readonly replayOf?: string;
  /** A decision given on resume approved the call (it ran) or refused it. */
  readonly approval?: 'approved' | 'denied';
  /** Who gave that decision (its `by`), as given. */
  readonly decidedBy?: string;
  /**
   * The tool's value broke its output contract, whatever the policy did about it (`warn` passed it,
   * `feedback` and `throw` failed the call). Only on the call whose tool returned it, not on one that
   * shares its result.
   */
  readonly contractViolation?: true;
} & (
  | {
      readonly type: 'success';
      /** The value the tool returned, before serialization. */
      readonly value: unknown;
      readonly truncated: boolean;
    }
  | {
      readonly type: 'error';
      /** Stable code, also written to the tool message's `errorCode`. */
      readonly code: ToolErrorCode;
      readonly errorClass: ErrorClass;
      /** The original failure, unredacted: for developers only. */
      readonly error: unknown;
    }
);

/** A call that failed: its code, class, the text the model reads, and the cause. */
export type ToolCallFailure = Extract<ToolCallResult, { readonly type: 'error' }>;

/** The codes a failed call can carry in its tool message. */
export type ToolErrorCode =
  | 'UNKNOWN_TOOL'
  | 'INVALID_ARGUMENTS'
  | 'INVALID_JSON'
  | 'ARGUMENTS_TOO_LARGE'
  | 'ARGUMENTS_TOO_DEEP'
  | 'FORBIDDEN_KEY'
  | 'TOO_MANY_INVALID_ATTEMPTS'
  | 'TOOL_CALL_LIMIT'
  | 'TOOL_ERROR'
  | 'TOOL_UNAVAILABLE'
  | 'IDEMPOTENCY_CONFLICT'
  | 'ALREADY_IN_PROGRESS'
  | 'OUTCOME_UNKNOWN'
  | 'PERMISSION_DENIED'
  | 'RESULT_NOT_SERIALIZABLE'
  | 'CONTRACT_VIOLATION'
  | 'INTERNAL_ERROR'
  | 'ABORTED';

/** What `executeToolCalls` returns, and what a thrown error carries as its partial result. */
export interface ToolExecutionResult {
  /** The conversation, then the assistant message, then one tool message per call in the model's order (per call that ran, when `interrupted`). */
  readonly messages: readonly Message[];
  /** One result per call, in the model's order. */
  readonly results: readonly ToolCallResult[];
  /** True only when every executed tool asked to return its result directly. */
  readonly returnDirect: boolean;
  /**
   * Set when calls wait for a decision (`needsApproval`, or a `decide` hook that asked): they
   * did not run. The others did: `messages` ends with the assistant message and their tool messages, and
   * `results` holds theirs. Resume by passing these `messages`, the same response and `decisions`: only
   * the waiting calls run, and every call's tool message then follows the assistant message in the
   * model's order.
   */
  readonly interrupted?: readonly PendingCall[];
}

/** Which limit a call reached: of the turn, or of the session. */
export type LimitScope = 'per-tool' | 'total' | 'session-per-tool' | 'session-total';
