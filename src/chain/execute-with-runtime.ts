import { DEFAULT_MAX_MODEL_MESSAGE_CHARS } from '../core/defaults.js';
import { CallbackError } from '../core/errors/callback-error.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { NoToolCallError } from '../core/errors/no-tool-call-error.js';
import { ToolCallLimitExceededError } from '../core/errors/tool-call-limit-exceeded-error.js';
import { ToolExecutionError } from '../core/errors/tool-execution-error.js';
import type { AssistantMessage, Message } from '../core/message.js';
import type { ToolEventListener } from '../core/tool-event.js';
import type { ToolExecutionResult } from '../core/tool-execution-result.js';
import type { OptionNames } from '../options/check-option-names.js';
import { redactForModel } from '../redact/redact.js';
import { limitErrorMessage } from './call-limits.js';
import { newCallId } from './new-call-id.js';
import { normalizeToolCalls } from './normalize-tool-calls.js';
import { inCallOrder, pausedRound, sameCalls } from './paused-round.js';
import { type ResumeDecision, type SettledDecision, settleDecisions } from './resume-decision.js';
import { runToolCalls } from './calls.js';
import type { ToolRuntime } from './runtime.js';
import type { TurnCountCache } from './turn-count-cache.js';

/** What every execution takes besides its calls: the context the tools run in, and where its events go. */
export interface ExecutionContext {
  /** Aborts every running tool (their signals abort); no retry or call starts after it, and the promise rejects with its reason. */
  readonly signal?: AbortSignal;
  /** Caller data passed to every tool's context, never to the model. */
  readonly data?: unknown;
  readonly turnId?: string;
  readonly sessionId?: string;
  /** Clock for durations, in milliseconds (default `performance.now`). */
  readonly now?: () => number;
  /** This execution's developer events. A listener that throws never breaks the execution. */
  readonly onEvent?: ToolEventListener;
  /** Events carry the unredacted error and offending result value (default false: only their kind). */
  readonly includeContent?: boolean;
}

/** The options of `ExecutionContext`, by name (the free functions refuse any other). */
export const CONTEXT_OPTIONS: OptionNames<ExecutionContext> = {
  signal: true,
  data: true,
  turnId: true,
  sessionId: true,
  now: true,
  onEvent: true,
  includeContent: true,
};

/** What one execution is about, apart from the tools and the policy. */
export interface ExecutionRequest extends ExecutionContext {
  /**
   * The conversation before the model's response. Handing back the `messages` an execution returned
   * (appending to it at most) lets the runtime count the turn's calls without walking the whole turn.
   */
  readonly messages: readonly Message[];
  /** The model's response (an assistant message with tool calls, or an object holding it as `message`). */
  readonly response: AssistantMessage | { readonly message: AssistantMessage };
  /**
   * Decisions for the calls of an interrupted response, by call id: their hooks are not asked again
   * (`authorize` is). An approval that names an `argumentsDigest` other than its call's is refused
   * (`ApprovalError`) before anything runs.
   */
  readonly decisions?: ReadonlyMap<string, ResumeDecision>;
}

/**
 * Executes the calls of one model response with a runtime: the response's calls are normalized (the
 * returned history holds the repaired assistant message), run, and answered in the model's order. The
 * outcome's failures become the documented throws, each carrying the partial result. A history that ends
 * with this response's round, paused (some calls answered, some waiting), is resumed: only the waiting
 * calls run, and the returned history holds every answer in the model's order.
 */
export async function executeWithRuntime(
  request: ExecutionRequest,
  runtime: ToolRuntime,
  cache: TurnCountCache,
): Promise<ToolExecutionResult> {
  const history = request.messages;
  const response = repairedAssistant(request.response);
  const paused = pausedRound(history);
  const resumed = paused !== undefined && sameCalls(paused.assistant, response) ? paused : undefined;
  const assistant = resumed?.assistant ?? response;
  const toRun = resumed === undefined ? assistant : { ...assistant, toolCalls: resumed.waiting };
  const decisions = checkDecisions(request.decisions, toRun);
  const counts = cache.countsFor(history);
  const outcome = await runToolCalls(
    {
      assistant: toRun,
      counts,
      signal: request.signal,
      data: request.data,
      turnId: request.turnId,
      sessionId: request.sessionId,
      now: request.now,
      onEvent: request.onEvent,
      includeContent: request.includeContent,
      decisions,
    },
    runtime,
  );
  const { interrupted, unknownTool, callbackFailure } = outcome;
  if (unknownTool !== undefined) throw unknownTool;

  const ran = outcome.results.length > 0 || interrupted !== undefined;
  const messages =
    resumed !== undefined
      ? history
          .slice(0, resumed.at)
          .concat([assistant], inCallOrder(assistant.toolCalls ?? [], resumed.settled, outcome.toolMessages))
      : ran
        ? history.concat([assistant], outcome.toolMessages)
        : history;
  const partialResult: ToolExecutionResult = {
    messages,
    results: outcome.results,
    returnDirect: outcome.returnDirect,
    ...(interrupted === undefined ? {} : { interrupted }),
  };
  if (outcome.aborted === true) throw request.signal?.reason;
  if (messages !== history) cache.remember(messages, counts);
  if (callbackFailure !== undefined) {
    throw new CallbackError({
      callback: callbackFailure.callback,
      cause: callbackFailure.error,
      partialResult,
    });
  }
  const { fatal, limited } = outcome;
  if (fatal !== undefined) {
    throw new ToolExecutionError({
      message: `Tool '${fatal.toolName}' (call ${fatal.toolCallId}) failed with a fatal error: ${describe(fatal.error)}`,
      toolName: fatal.toolName,
      toolCallId: fatal.toolCallId,
      cause: fatal.error,
      partialResult,
    });
  }
  if (limited?.limit !== undefined && runtime.policy.onLimitExceeded === 'throw') {
    throw new ToolCallLimitExceededError({
      message: limitErrorMessage(limited.limit, limited.toolName),
      scope: limited.limit.scope,
      limit: limited.limit.limit,
      toolName: limited.toolName,
      partialResult,
    });
  }
  return partialResult;
}

/** The decisions checked against the calls about to run (see `settleDecisions`); ids of other calls are left out. */
function checkDecisions(
  decisions: ReadonlyMap<string, ResumeDecision> | undefined,
  assistant: AssistantMessage,
): ReadonlyMap<string, SettledDecision> | undefined {
  if (decisions === undefined) return undefined;
  if (!(decisions instanceof Map)) {
    throw new InvalidOptionsError({ option: 'decisions', message: 'must be a Map of call id to decision' });
  }
  const calls = (assistant.toolCalls ?? []).map((call) => ({
    toolCallId: call.id,
    toolName: call.name,
    arguments: call.arguments,
  }));
  return settleDecisions(decisions, calls, { option: 'decisions', strict: false, requireDigest: false });
}

/**
 * The response's assistant message with its calls normalized; other fields are kept. Throws
 * `NoToolCallError` when there is no message or it requests no call.
 */
function repairedAssistant(response: unknown): AssistantMessage {
  const message = messageOf(response);
  if (message === undefined) throw new NoToolCallError();
  let fields: Partial<Record<string, unknown>>;
  try {
    fields = { ...message };
  } catch {
    fields = {};
  }
  const toolCalls = normalizeToolCalls(fields.toolCalls, newCallId);
  if (toolCalls.length === 0) throw new NoToolCallError();
  fields.role = 'assistant';
  if (typeof fields.content !== 'string') fields.content = '';
  fields.toolCalls = toolCalls;
  return fields as unknown as AssistantMessage;
}

function messageOf(response: unknown): object | undefined {
  if (typeof response !== 'object' || response === null) return undefined;
  try {
    if ('role' in response) return response;
    const held = (response as { message?: unknown }).message;
    return typeof held === 'object' && held !== null ? held : undefined;
  } catch {
    return undefined;
  }
}

/** The fatal error in the thrown error's message, redacted (logs print it; `cause` keeps the original). */
function describe(error: unknown): string {
  try {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return redactForModel(text, DEFAULT_MAX_MODEL_MESSAGE_CHARS);
  } catch {
    return 'a value that cannot be printed';
  }
}
