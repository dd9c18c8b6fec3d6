import type { ErrorClass } from '../core/error-class.js';
import { CallbackError } from '../core/errors/callback-error.js';
import type { ToolCallResult, ToolErrorCode } from '../core/tool-execution-result.js';
import type { ExecutionContext } from './execute-with-runtime.js';
import { newCallId } from './new-call-id.js';
import { normalizeToolCalls } from './normalize-tool-calls.js';
import type { PendingCall } from './pending-call.js';
import { type ResumeDecision, settleDecisions } from './resume-decision.js';
import { runToolCalls } from './calls.js';
import type { ToolRuntime } from './runtime.js';
import type { TurnCounts } from './limits.js';

/** One call, as a model or an MCP client sends it. */
export interface ToolCallInput {
  /** Default: a generated `tw_…` id. */
  readonly id?: string;
  readonly name: string;
  /** The argument text, or an arguments object (as MCP sends it), encoded as JSON first. */
  readonly arguments?: unknown;
}

export interface SingleCallOptions extends ExecutionContext {
  /** The decision for a call that was interrupted before: the hooks are not asked again (`authorize` is). */
  readonly decision?: ResumeDecision;
  /**
   * The turn's counts, updated when the call is admitted. Left out, no turn limits apply (no per-tool or
   * total limit, no invalid-attempt limit): the caller keeps count.
   */
  readonly counts?: TurnCounts;
}

/** What a call gave: what an MCP proxy answers with. */
export interface ToolCallAnswer {
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
  readonly errorClass?: ErrorClass;
  readonly result: ToolCallResult;
}

/** The call waits for a decision (`needsApproval`, or a hook that interrupted): it did not run; run it again with a `decision`. */
export interface ToolCallInterruption {
  readonly type: 'interrupted';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly pending: PendingCall;
}

export type ToolCallOutcome = ToolCallAnswer | ToolCallInterruption;

/**
 * One call through the whole chain (lookup, parse, validate, `beforeToolCall`, `wrapToolExecution`,
 * timeout, retries, output contract, serialization, redaction), with no history. Every failure of the
 * model or the tool, fatal ones included, is an answer with `isError: true`. Rejects with the signal's
 * reason when the caller aborts, with `CallbackError` when a callback fails, and with `UnknownToolError`
 * under `unknownTool: 'throw'`.
 */
export async function executeSingleCall(
  input: ToolCallInput,
  options: SingleCallOptions,
  runtime: ToolRuntime,
): Promise<ToolCallOutcome> {
  const [call] = normalizeToolCalls([input], newCallId);
  if (call === undefined) throw new TypeError('executeToolCall expects a call { id?, name, arguments? }');
  const outcome = await runToolCalls(
    {
      assistant: { role: 'assistant', content: '', toolCalls: [call] },
      counts: options.counts,
      signal: options.signal,
      data: options.data,
      turnId: options.turnId,
      sessionId: options.sessionId,
      now: options.now,
      onEvent: options.onEvent,
      includeContent: options.includeContent,
      decisions:
        options.decision === undefined
          ? undefined
          : settleDecisions(
              [[call.id, options.decision]],
              [{ toolCallId: call.id, toolName: call.name, arguments: call.arguments }],
              { option: 'decision', strict: true, requireDigest: false },
            ),
    },
    runtime,
  );
  const pending = outcome.interrupted?.[0];
  if (pending !== undefined) {
    return { type: 'interrupted', toolCallId: pending.toolCallId, toolName: pending.toolName, pending };
  }
  if (outcome.unknownTool !== undefined) throw outcome.unknownTool;
  if (outcome.aborted === true) throw options.signal?.reason;
  const { callbackFailure } = outcome;
  if (callbackFailure !== undefined) {
    throw new CallbackError({ callback: callbackFailure.callback, cause: callbackFailure.error });
  }
  const result = outcome.results[0] as ToolCallResult;
  const { toolCallId, toolName, content } = result;
  // Written out, not `{ ...common, isError }`: on Node 20 a property added after a spread gives every
  // object a hidden class of its own (about 1 µs and a map's garbage per call).
  return result.type === 'success'
    ? { type: 'answered', toolCallId, toolName, content, result, isError: false, value: result.value }
    : {
        type: 'answered',
        toolCallId,
        toolName,
        content,
        result,
        isError: true,
        code: result.code,
        errorClass: result.errorClass,
      };
}
