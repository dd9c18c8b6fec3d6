import { DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS } from '../defaults.js';
import { NoToolCallError } from '../errors/no-tool-call-error.js';
import { UnknownToolError } from '../errors/unknown-tool-error.js';
import type { AssistantMessage, ToolCall, ToolMessage } from '../messages/message.js';
import { summarizeArguments } from '../redact/redact.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ResolvedPolicy } from './execution-policy.js';
import { formatToolError } from './format-tool-error.js';
import { type PreparedCall, prepareToolCall, type RejectedCall } from './prepare-tool-call.js';
import { runToolCall } from './run-tool-call.js';
import { createSemaphore } from './semaphore.js';
import { emitTo } from './tool-event.js';
import type { ToolCallFailure, ToolCallResult } from './tool-execution-result.js';
import type { TurnCounts } from './turn-counts.js';

/** One response's calls, and the context they run in. */
export interface CallsRequest {
  readonly assistant: AssistantMessage;
  readonly signal?: AbortSignal | undefined;
  readonly data?: unknown;
  readonly turnId?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly now?: (() => number) | undefined;
}

/** What running one response's calls produced; nothing thrown for limits or fatal failures: they are here. */
export interface CallsOutcome {
  readonly results: readonly ToolCallResult[];
  /** One per call, in the model's order. */
  readonly toolMessages: readonly ToolMessage[];
  readonly returnDirect: boolean;
  /** The first call that failed fatally, if any. */
  readonly fatal?: ToolCallFailure;
  /** The first call refused by a call limit, if any. */
  readonly limited?: RejectedCall;
  /** Each call's validated arguments, in order; undefined for a call refused before its tool ran. */
  readonly validatedArguments: readonly unknown[];
}

/**
 * Runs the tool calls of one assistant message: prepare each in the model's order (lookup, limits,
 * arguments), then run the ready ones concurrently (capped; writes one at a time). `counts` is updated
 * as calls are admitted, so a loop can keep one running count for a whole turn.
 */
export function runToolCalls(
  input: CallsRequest,
  policy: ResolvedPolicy,
  registry: ToolRegistry,
  counts: TurnCounts,
): CallsOutcome | Promise<CallsOutcome> {
  const calls = toolCallsOf(input.assistant);
  const prepared: PreparedCall[] = [];
  for (let index = 0; index < calls.length; index++) {
    const entry = prepareToolCall(calls[index] as ToolCall, registry, counts, policy);
    if (entry instanceof Promise)
      return prepareRest(calls, index, entry, prepared, input, policy, registry, counts);
    prepared.push(entry);
  }
  return executePrepared(prepared, input, policy, registry);
}

/** The slow path: an asynchronous validator; the remaining calls are prepared in order after it. */
async function prepareRest(
  calls: readonly ToolCall[],
  index: number,
  pending: Promise<PreparedCall>,
  prepared: PreparedCall[],
  input: CallsRequest,
  policy: ResolvedPolicy,
  registry: ToolRegistry,
  counts: TurnCounts,
): Promise<CallsOutcome> {
  prepared.push(await pending);
  for (let next = index + 1; next < calls.length; next++) {
    prepared.push(await prepareToolCall(calls[next] as ToolCall, registry, counts, policy));
  }
  return executePrepared(prepared, input, policy, registry);
}

function executePrepared(
  prepared: readonly PreparedCall[],
  input: CallsRequest,
  policy: ResolvedPolicy,
  registry: ToolRegistry,
): CallsOutcome | Promise<CallsOutcome> {
  if (policy.unknownTool === 'throw') throwIfUnknown(prepared, registry);
  const context = {
    policy,
    signal: input.signal,
    data: input.data,
    turnId: input.turnId,
    sessionId: input.sessionId,
    now: input.now ?? defaultNow,
  };
  // The summary is only ever shown in events: nobody listening, nothing to redact.
  const listening = policy.onEvent !== undefined;
  const runOne = (entry: PreparedCall): ToolCallResult | Promise<ToolCallResult> => {
    const summary = listening
      ? summarizeArguments(String(entry.call.arguments ?? ''), DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS)
      : '';
    if (entry.type === 'rejected') return reportRejected(entry, summary, policy);
    if (listening) {
      emitTo(policy.onEvent, {
        type: 'tool-call-start',
        toolName: entry.tool.name,
        toolCallId: String(entry.call.id),
        argumentsSummary: summary,
      });
    }
    const result = runToolCall(entry, context, summary);
    if (!(result instanceof Promise)) {
      if (listening) reportEnd(result, summary, policy);
      return result;
    }
    return listening
      ? result.then((settled) => {
          reportEnd(settled, summary, policy);
          return settled;
        })
      : result;
  };
  if (prepared.length === 1) {
    const only = runOne(prepared[0] as PreparedCall);
    return only instanceof Promise
      ? only.then((result) => summarize([result], prepared))
      : summarize([only], prepared);
  }
  const all = createSemaphore(policy.concurrency);
  const writes = createSemaphore(policy.writeConcurrency);
  return Promise.all(
    prepared.map((entry) => {
      if (entry.type === 'rejected') return runOne(entry);
      const run = () => all.run(async () => runOne(entry));
      return entry.tool.effect === 'write' ? writes.run(run) : run();
    }),
  ).then((results) => summarize(results, prepared));
}

const defaultNow = (): number => performance.now();

export function toolCallsOf(assistant: AssistantMessage): readonly ToolCall[] {
  const calls: unknown = assistant.toolCalls;
  if (!Array.isArray(calls) || calls.length === 0) throw new NoToolCallError();
  // A call that is not an object becomes an empty one (answered as an unknown tool); copy only then.
  for (const call of calls) {
    if (typeof call !== 'object' || call === null) return calls.map(toToolCall);
  }
  return calls as ToolCall[];
}

function toToolCall(call: unknown): ToolCall {
  return typeof call === 'object' && call !== null ? (call as ToolCall) : { id: '', name: '', arguments: '' };
}

function throwIfUnknown(prepared: readonly PreparedCall[], registry: ToolRegistry): void {
  for (const entry of prepared) {
    if (entry.type !== 'rejected' || entry.code !== 'UNKNOWN_TOOL') continue;
    const id = String(entry.call.id);
    throw new UnknownToolError({
      toolName: entry.toolName,
      toolCallId: id,
      availableTools: registry.names(),
      message: `No tool named '${entry.toolName}' (tool call ${id}). Available tools: ${registry.names().join(', ')}.`,
    });
  }
}

function summarize(results: ToolCallResult[], prepared: readonly PreparedCall[]): CallsOutcome {
  let fatal: ToolCallFailure | undefined;
  for (const result of results) {
    if (result.type === 'error' && result.errorClass === 'fatal') {
      fatal = result;
      break;
    }
  }
  let executed = 0;
  let direct = 0;
  let limited: RejectedCall | undefined;
  for (const entry of prepared) {
    if (entry.type === 'rejected') {
      if (limited === undefined && entry.limit !== undefined) limited = entry;
      continue;
    }
    executed++;
    if (entry.tool.returnDirect) direct++;
  }
  const validatedArguments: unknown[] = new Array(prepared.length);
  for (let i = 0; i < prepared.length; i++) {
    const entry = prepared[i] as PreparedCall;
    validatedArguments[i] = entry.type === 'ready' ? entry.args : undefined;
  }
  const outcome: { -readonly [K in keyof CallsOutcome]: CallsOutcome[K] } = {
    results,
    toolMessages: results.map(toToolMessage),
    returnDirect: executed > 0 && direct === executed,
    validatedArguments,
  };
  if (fatal !== undefined) outcome.fatal = fatal;
  if (limited !== undefined) outcome.limited = limited;
  return outcome;
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
  const { toolName, toolCallId } = result;
  if (result.type === 'success') {
    emitTo(policy.onEvent, {
      type: 'tool-call-end',
      toolName,
      toolCallId,
      argumentsSummary: summary,
      outcome: 'success',
      durationMs: result.durationMs,
      attempts: result.attempts,
    });
    return;
  }
  const base = { toolName, toolCallId, argumentsSummary: summary };
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
  emitTo(policy.onEvent, {
    type: 'tool-call-end',
    ...base,
    outcome: result.errorClass,
    code: result.code,
    durationMs: result.durationMs,
    attempts: result.attempts,
  });
}
