import type { ErrorClass } from '../core/error-class.js';
import type { AssistantMessage, Message } from '../core/message.js';
import type { Store } from '../core/store.js';
import type { ToolEvent } from '../core/tool-event.js';
import type {
  LimitScope,
  ToolCallResult,
  ToolErrorCode,
  ToolExecutionResult,
} from '../core/tool-execution-result.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { PendingCall } from './pending-call.js';
import type { ResumeDecision } from './resume-decision.js';

export type { ToolRuntimeOptions } from './tool-runtime-options.js';

/**
 * What `executeToolCall` gives: an answer (`answered`: what an MCP proxy answers with), or the interruption
 * of a call that waits for a decision (`interrupted`: `needsApproval`, or a hook that interrupted; it did not
 * run; run it again with `decisions`).
 */
export type ToolCallOutcome =
  | {
      readonly type: 'answered';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly isError: boolean;
      /** The text the model sees. */
      readonly content: string;
      /** The tool's value, before serialization (success only). */
      readonly value?: unknown;
      /** The error's stable code (errors only). */
      readonly code?: ToolErrorCode;
      /** The failure's class (errors only). */
      readonly errorClass?: ErrorClass;
      /** The limit the call reached, when it was refused `TOOL_CALL_LIMIT`. */
      readonly limit?: { readonly scope: LimitScope; readonly limit: number };
      /** The full result of the call. */
      readonly result: ToolCallResult;
    }
  | {
      readonly type: 'interrupted';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly pending: PendingCall;
    };

/** What a call gave: what an MCP proxy answers with. */
export type ToolCallAnswer = Extract<ToolCallOutcome, { type: 'answered' }>;

/** One call, as a model or an MCP client sends it. */
export type ToolCallInput = Parameters<ToolRuntime['executeToolCall']>[0];

/**
 * Tools and a policy, checked and resolved once, with the store the policy names (or a `MemoryStore` of
 * its own): the one way to run tool calls. Each execution counts its turn from the history it is given
 * (back to the last user message), so one runtime serves any number of turns and sessions at once.
 */
export interface ToolRuntime {
  readonly tools: ToolRegistry;
  /** What the runtime runs with that a caller may read, every default filled in. */
  readonly policy: {
    /** The store the policy named, or the runtime's own `MemoryStore`. */
    readonly store: Store;
    readonly onLimitExceeded: 'throw' | 'feedback';
    readonly onStoreFailure: 'open' | 'closed';
    /** The text the model reads for a denied call. */
    readonly deniedText: string;
  };
  /**
   * Executes the calls of one model response and appends one tool message per call, in the model's order.
   * Failures the model can act on become tool messages. A fatal failure throws `ToolExecutionError`, a
   * limit under the `throw` policy `ToolCallLimitExceededError`, a caller callback that fails
   * `CallbackError`: each carries the partial result. When the caller's signal aborts, the promise rejects
   * with the signal's reason. Calls that wait for a decision do not run: the result lists them as
   * `interrupted`, and the other calls of the response run. Handing back the returned `messages` with the
   * same response and `decisions` runs the waiting ones.
   */
  executeToolCalls(
    /** What one execution is about, apart from the tools and the policy, and the context its tools run in. */
    request: {
      /** Aborts every running tool (their signals abort); no retry or call starts after it, and the promise rejects with its reason. */
      readonly signal?: AbortSignal;
      /** Caller data passed to every tool's context, never to the model. */
      readonly data?: unknown;
      /** The turn the calls belong to: with a `sessionId`, the turn's limits are counted in the store. */
      readonly turnId?: string;
      /** The session the calls belong to: its writes' records and its limits live in the runtime's store. */
      readonly sessionId?: string;
      /** Clock for durations, in milliseconds (default `performance.now`). */
      readonly now?: () => number;
      /** This execution's developer events. A listener that throws never breaks the execution. */
      readonly onEvent?: (event: ToolEvent) => void;
      /** Events carry the unredacted error and offending result value (default false: only their kind). */
      readonly includeContent?: boolean;
      /** The conversation before the model's response: the turn's counts are taken from it. */
      readonly messages: readonly Message[];
      /** The model's response: an assistant message with tool calls. */
      readonly response: AssistantMessage;
      /**
       * Decisions for the calls of an interrupted response (`needsApproval`, or a hook that interrupted),
       * by call id: their hooks are not asked again (`decide` is). An approval that names an
       * `argumentsDigest` other than its call's is refused (`ApprovalError`) before anything runs.
       */
      readonly decisions?: Readonly<Record<string, ResumeDecision>>;
    },
  ): Promise<ToolExecutionResult>;
  /**
   * Runs one call through the whole chain with no history: the structured answer (`content`, `isError`,
   * `value`, `code`, `errorClass`, the full `result`) an MCP proxy needs, or the interruption of a call that
   * waits for a decision. Every failure of the model or the tool, fatal ones included, is an answer with
   * `isError: true`. Rejects with the signal's reason when the caller aborts, with `CallbackError` when a
   * callback fails, and with `UnknownToolError` under `unknownTool: 'throw'`. Without `counts`, no turn
   * limits apply.
   */
  executeToolCall(
    /** One call, as a model or an MCP client sends it. */
    call: {
      /** Default: a generated `tw_…` id. */
      readonly id?: string;
      readonly name: string;
      /** The argument text, or an arguments object (as MCP sends it), encoded as JSON first. */
      readonly arguments?: unknown;
    },
    /** The context of `executeToolCalls` (`signal`, `data`, `sessionId`, `onEvent`, …), and the call's own. */
    options?: Omit<Parameters<ToolRuntime['executeToolCalls']>[0], 'messages' | 'response'> & {
      /**
       * The turn's counts, updated when the call is admitted. Left out, no turn limits apply (no per-tool or
       * total limit, no invalid-attempt limit): the caller keeps count.
       */
      readonly counts?: {
        /** Calls of the turn so far. */
        total: number;
        /** Calls of the turn so far, by tool name. */
        readonly perTool: Map<string, number>;
        /** Invalid-argument results of the turn so far, by tool name. */
        readonly invalidPerTool: Map<string, number>;
        /**
         * The run's ceiling of model calls: a per-tool or total limit left at its default is raised to it,
         * so a run allowed 70 rounds may spend them on one tool (a long pagination).
         */
        readonly ceiling?: number;
      };
      /**
       * Whose idempotency records the call is matched against, when not its session's alone (several
       * sessions sharing one scope replay each other's writes); the session's limits still count under
       * `sessionId`. Default: the `sessionId`.
       */
      readonly idempotencyScope?: string;
    },
  ): Promise<ToolCallOutcome>;
}

/** What one execution is about: `executeToolCalls`' request. */
export type ExecutionRequest = Parameters<ToolRuntime['executeToolCalls']>[0];

/** Decisions for waiting calls, by call id: `executeToolCalls`' `decisions`, the one shape everywhere. */
export type Decisions = NonNullable<ExecutionRequest['decisions']>;

/** What every execution takes besides its calls: the context the tools run in, and where its events go. */
export type ExecutionContext = Omit<ExecutionRequest, 'messages' | 'response' | 'decisions'>;

/** What `executeToolCall` takes besides the call. */
export type SingleCallOptions = NonNullable<Parameters<ToolRuntime['executeToolCall']>[1]>;
