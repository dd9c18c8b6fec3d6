import { DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS } from '../defaults.js';
import { NoToolCallError } from '../errors/no-tool-call-error.js';
import { ToolCallLimitExceededError } from '../errors/tool-call-limit-exceeded-error.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { UnknownToolError } from '../errors/unknown-tool-error.js';
import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../messages/message.js';
import { summarizeArguments } from '../redact/redact.js';
import type { AnyTool } from '../tools/define-tool.js';
import { type ToolRegistry, toToolRegistry } from '../tools/tool-registry.js';
import { type ResolvedPolicy, resolvePolicy, type ToolExecutionPolicy } from './execution-policy.js';
import { formatToolError } from './format-tool-error.js';
import { type PreparedCall, prepareToolCall, type RejectedCall } from './prepare-tool-call.js';
import { runToolCall } from './run-tool-call.js';
import { createSemaphore } from './semaphore.js';
import { emitTo } from './tool-event.js';
import type { ToolCallFailure, ToolCallResult, ToolExecutionResult } from './tool-execution-result.js';
import { countTurnCalls } from './turn-counts.js';

export interface ExecuteToolCallsInput extends ToolExecutionPolicy, ExecutionRequest {}

/** What one execution is about, apart from the policy. */
export interface ExecutionRequest {
  /** The conversation before the model's response. */
  readonly messages: readonly Message[];
  /** The model's response (an assistant message with tool calls, or an object holding it as `message`). */
  readonly response: AssistantMessage | { readonly message: AssistantMessage };
  readonly tools: ToolRegistry | Iterable<AnyTool>;
  /** Aborts every running tool (their signals abort) and skips retries. */
  readonly signal?: AbortSignal;
  /** Caller data passed to every tool's context, never to the model. */
  readonly data?: unknown;
  readonly turnId?: string;
  readonly sessionId?: string;
  /** Clock for durations, in milliseconds (default `performance.now`). */
  readonly now?: () => number;
}

/**
 * Executes the tool calls of one model response and appends one tool message per call, in the model's
 * order. Failures the model can act on become tool messages; a fatal failure throws `ToolExecutionError`,
 * and a limit under the `throw` policy throws `ToolCallLimitExceededError`: both carry the full partial result.
 */
export async function executeToolCalls(input: ExecuteToolCallsInput): Promise<ToolExecutionResult> {
  return executeWithPolicy(input, resolvePolicy(input));
}

/** The chain with a policy resolved once (see `createToolCallingManager`). */
export async function executeWithPolicy(
  input: ExecutionRequest,
  policy: ResolvedPolicy,
): Promise<ToolExecutionResult> {
  const registry = toToolRegistry(input.tools);
  const assistant = assistantOf(input.response);
  const calls = toolCallsOf(assistant);
  const counts = countTurnCalls(input.messages, policy.limits.isExcluded);

  const prepared: PreparedCall[] = [];
  for (const call of calls) {
    const entry = prepareToolCall(call, registry, counts, policy);
    prepared.push(entry instanceof Promise ? await entry : entry);
  }
  const unknown = prepared.find((p): p is RejectedCall => p.type === 'rejected' && p.code === 'UNKNOWN_TOOL');
  if (policy.unknownTool === 'throw' && unknown !== undefined) {
    throw new UnknownToolError({
      toolName: unknown.toolName,
      toolCallId: String(unknown.call.id),
      availableTools: registry.names(),
      message: `No tool named '${unknown.toolName}' (tool call ${String(unknown.call.id)}). Available tools: ${registry.names().join(', ')}.`,
    });
  }

  const context = {
    policy,
    signal: input.signal,
    data: input.data,
    turnId: input.turnId,
    sessionId: input.sessionId,
    now: input.now ?? defaultNow,
  };
  const runOne = (entry: PreparedCall): ToolCallResult | Promise<ToolCallResult> => {
    const summary = summarizeArguments(
      String(entry.call.arguments ?? ''),
      DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS,
    );
    if (entry.type === 'rejected') return reportRejected(entry, summary, policy);
    emitTo(policy.onEvent, {
      type: 'tool-call-start',
      toolName: entry.tool.name,
      toolCallId: String(entry.call.id),
      argumentsSummary: summary,
    });
    const result = runToolCall(entry, context, summary);
    if (!(result instanceof Promise)) {
      reportEnd(result, summary, policy);
      return result;
    }
    return result.then((settled) => {
      reportEnd(settled, summary, policy);
      return settled;
    });
  };
  let results: ToolCallResult[];
  if (prepared.length === 1) {
    const only = runOne(prepared[0] as PreparedCall);
    results = [only instanceof Promise ? await only : only];
  } else {
    const all = createSemaphore(policy.concurrency);
    const writes = createSemaphore(policy.writeConcurrency);
    results = await Promise.all(
      prepared.map((entry) => {
        if (entry.type === 'rejected') return runOne(entry);
        const run = () => all.run(async () => runOne(entry));
        return entry.tool.effect === 'write' ? writes.run(run) : run();
      }),
    );
  }
  return finish(input.messages, assistant, results, prepared, policy);
}

const defaultNow = (): number => performance.now();

function assistantOf(response: ExecuteToolCallsInput['response'] | null | undefined): AssistantMessage {
  if (typeof response !== 'object' || response === null) throw new NoToolCallError();
  if ('role' in response) return response;
  if ('message' in response && typeof response.message === 'object' && response.message !== null) {
    return response.message;
  }
  throw new NoToolCallError();
}

function toolCallsOf(assistant: AssistantMessage): readonly ToolCall[] {
  const calls: unknown = assistant.toolCalls;
  if (!Array.isArray(calls) || calls.length === 0) throw new NoToolCallError();
  return calls.map(
    (call: unknown): ToolCall =>
      typeof call === 'object' && call !== null ? (call as ToolCall) : { id: '', name: '', arguments: '' },
  );
}

function finish(
  history: readonly Message[],
  assistant: AssistantMessage,
  results: readonly ToolCallResult[],
  prepared: readonly PreparedCall[],
  policy: ResolvedPolicy,
): ToolExecutionResult {
  const messages: Message[] = history.slice();
  messages.push(assistant);
  let fatal: ToolCallFailure | undefined;
  for (const result of results) messages.push(toToolMessage(result));
  for (const result of results) {
    if (result.type === 'error' && result.errorClass === 'fatal') {
      fatal = result;
      break;
    }
  }
  let executed = 0;
  let direct = 0;
  for (const entry of prepared) {
    if (entry.type !== 'ready') continue;
    executed++;
    if (entry.tool.returnDirect) direct++;
  }
  const partialResult: ToolExecutionResult = {
    messages,
    results,
    returnDirect: executed > 0 && direct === executed,
  };
  if (fatal !== undefined) {
    throw new ToolExecutionError({
      message: `Tool '${fatal.toolName}' (call ${fatal.toolCallId}) failed with a fatal error: ${describe(fatal.error)}`,
      toolName: fatal.toolName,
      toolCallId: fatal.toolCallId,
      cause: fatal.error,
      partialResult,
    });
  }
  const limited = prepared.find((entry): entry is RejectedCall => entry.type === 'rejected' && !!entry.limit);
  if (limited?.limit !== undefined && policy.onLimitExceeded === 'throw') {
    throw new ToolCallLimitExceededError({
      message: limited.message,
      scope: limited.limit.scope,
      limit: limited.limit.limit,
      toolName: limited.toolName,
      partialResult,
    });
  }
  return partialResult;
}

function toToolMessage(result: ToolCallResult): ToolMessage {
  return result.type === 'success'
    ? {
        role: 'tool',
        toolCallId: result.toolCallId,
        name: result.toolName,
        content: result.content,
        isError: false,
      }
    : {
        role: 'tool',
        toolCallId: result.toolCallId,
        name: result.toolName,
        content: result.content,
        isError: true,
        errorCode: result.code,
      };
}

function reportRejected(entry: RejectedCall, summary: string, policy: ResolvedPolicy): ToolCallResult {
  const result: ToolCallResult = {
    type: 'error',
    toolCallId: String(entry.call.id),
    toolName: entry.toolName,
    code: entry.code,
    errorClass: entry.errorClass,
    error: entry.error ?? entry.message,
    content: formatToolError(entry.code, entry.message),
    attempts: 0,
    durationMs: 0,
  };
  emitTo(policy.onEvent, {
    type: 'tool-call-start',
    toolName: entry.toolName,
    toolCallId: result.toolCallId,
    argumentsSummary: summary,
  });
  reportEnd(result, summary, policy, entry.availableTools);
  return result;
}

function reportEnd(
  result: ToolCallResult,
  summary: string,
  policy: ResolvedPolicy,
  availableTools?: readonly string[],
): void {
  const base = { toolName: result.toolName, toolCallId: result.toolCallId, argumentsSummary: summary };
  if (result.type === 'error') {
    if (result.errorClass === 'denied')
      emitTo(policy.onEvent, { type: 'tool-call-denied', ...base, error: result.error });
    emitTo(policy.onEvent, {
      type: 'tool-call-error',
      ...base,
      code: result.code,
      errorClass: result.errorClass,
      durationMs: result.durationMs,
      attempts: result.attempts,
      error: result.error,
      ...(availableTools === undefined ? {} : { availableTools }),
    });
  }
  emitTo(policy.onEvent, {
    type: 'tool-call-end',
    ...base,
    outcome: result.type === 'success' ? 'success' : result.errorClass,
    ...(result.type === 'error' ? { code: result.code } : {}),
    durationMs: result.durationMs,
    attempts: result.attempts,
  });
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return String(error);
  } catch {
    return 'a value that cannot be printed';
  }
}
