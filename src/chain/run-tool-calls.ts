import { DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS } from '../defaults.js';
import { PermissionDeniedError } from '../errors/permission-denied-error.js';
import { UnknownToolError } from '../errors/unknown-tool-error.js';
import type { AssistantMessage, ToolCall, ToolMessage } from '../messages/message.js';
import { summarizeArguments } from '../redact/redact.js';
import { type BeforeToolCallContext, decideToolCall, type ResumeDecision } from './before-tool-call.js';
import { formatToolError } from './format-tool-error.js';
import {
  type PreparedCall,
  prepareToolCall,
  type ReadyCall,
  type RejectedCall,
} from './prepare-tool-call.js';
import type { RunContext } from './run-context.js';
import { runToolCall } from './run-tool-call.js';
import { createSemaphore } from './semaphore.js';
import { createEventSink, type EventSink, errorFields, type ToolEventListener } from './tool-event.js';
import type { PendingCall, ToolCallFailure, ToolCallResult } from './tool-execution-result.js';
import { toolFailure } from './tool-failure.js';
import type { ToolRuntime } from './tool-runtime.js';
import { decrement, type TurnCounts } from './turn-counts.js';

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
  readonly now?: (() => number) | undefined;
  readonly onEvent?: ToolEventListener | undefined;
  /** Events carry the unredacted error and offending value (default false). */
  readonly includeContent?: boolean | undefined;
  /** Decisions for calls of an interrupted response, by call id: their hooks are not asked again. */
  readonly decisions?: ReadonlyMap<string, ResumeDecision> | undefined;
}

/** A caller's callback that threw or answered nonsense. */
export interface CallbackFailure {
  readonly callback: string;
  readonly error: unknown;
}

/** What running one response's calls produced: every failure is a field here, nothing is thrown. */
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
  /** A `beforeToolCall` hook interrupted: no call ran (results and messages are empty, counts untouched). */
  readonly interrupted?: readonly PendingCall[];
  /** The caller's signal aborted: calls not finished by then failed as `ABORTED`. */
  readonly aborted?: boolean;
  /**
   * A caller callback failed. From `beforeToolCall`: no call ran (as for an interrupt). From
   * `wrapToolExecution` or `classifyError`: that call failed as `INTERNAL_ERROR`, the others ran.
   */
  readonly callbackFailure?: CallbackFailure;
  /** Under `unknownTool: 'throw'`, the first unknown call: no call ran (as for an interrupt). */
  readonly unknownTool?: UnknownToolError;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Runs the tool calls of one assistant message: prepare each in the model's order (lookup, limits,
 * arguments), ask the `beforeToolCall` hooks, then run the ready ones concurrently (capped; writes one at a
 * time). `counts` is updated as calls are admitted, so a loop can keep one running count for a whole turn.
 * Never rejects.
 */
export async function runToolCalls(request: CallsRequest, runtime: ToolRuntime): Promise<CallsOutcome> {
  const calls = request.assistant.toolCalls ?? [];
  const events = createEventSink(request.onEvent, request.includeContent === true);
  try {
    return await runCalls(calls, request, runtime, events);
  } catch (error) {
    // Only a defect of the chain itself reaches here; every call is still answered.
    const results = calls.map((call) =>
      toolFailure({
        base: { toolCallId: call.id, toolName: call.name },
        error,
        errorClass: 'fatal',
        attempts: 0,
        durationMs: 0,
      }),
    );
    return summarize(results, [], request.signal);
  }
}

async function runCalls(
  calls: readonly ToolCall[],
  request: CallsRequest,
  runtime: ToolRuntime,
  events: EventSink,
): Promise<CallsOutcome> {
  const { policy, tools: registry } = runtime;
  const { counts, signal } = request;
  const prepared: PreparedCall[] = [];
  for (const call of calls) prepared.push(await prepareToolCall(call, { registry, policy, counts }));

  if (policy.unknownTool === 'throw') {
    const unknown = prepared.find((entry) => entry.type === 'rejected' && entry.code === 'UNKNOWN_TOOL');
    if (unknown !== undefined) {
      release(counts, prepared);
      const id = unknown.call.id;
      const toolName = (unknown as RejectedCall).toolName;
      const available = registry.names();
      return halted({
        unknownTool: new UnknownToolError({
          toolName,
          toolCallId: id,
          availableTools: available,
          message: `No tool named '${toolName}' (tool call ${id}). Available tools: ${available.join(', ')}.`,
        }),
      });
    }
  }

  const asks =
    policy.beforeToolCall !== undefined || request.decisions !== undefined || hasToolHook(prepared);
  if (asks && signal?.aborted !== true) {
    const decided = await decideAll(prepared, request, runtime);
    if (decided !== undefined) {
      release(counts, prepared);
      return halted(decided);
    }
  }

  let failure: CallbackFailure | undefined;
  const context: RunContext = {
    policy,
    signal,
    data: request.data,
    turnId: request.turnId,
    sessionId: request.sessionId,
    now: request.now ?? defaultNow,
    events,
    callbackFailed: (callback, error) => {
      failure ??= { callback, error };
    },
  };
  const all = createSemaphore(policy.concurrency);
  const writes = createSemaphore(policy.writeConcurrency);
  const results = await Promise.all(
    prepared.map((entry) => {
      if (entry.type === 'rejected') return answerRejected(entry, context);
      const run = () => all.run(() => runReady(entry, context));
      return entry.tool.effect === 'write' ? writes.run(run) : run();
    }),
  );
  const outcome = summarize(results, prepared, signal);
  return failure === undefined ? outcome : { ...outcome, callbackFailure: failure };
}

/**
 * Asks the hooks of every ready call, in the model's order (a decision given for a call id wins). A denied
 * call becomes a rejected one in place. Returns what halts the response, if anything does.
 */
async function decideAll(
  prepared: PreparedCall[],
  request: CallsRequest,
  runtime: ToolRuntime,
): Promise<Pick<CallsOutcome, 'interrupted' | 'callbackFailure'> | undefined> {
  const policyHook = runtime.policy.beforeToolCall;
  const { decisions } = request;
  const context: BeforeToolCallContext = {
    turnId: request.turnId,
    sessionId: request.sessionId,
    data: request.data,
    signal: request.signal,
  };
  const interrupted: PendingCall[] = [];
  for (let index = 0; index < prepared.length; index++) {
    const entry = prepared[index] as PreparedCall;
    if (entry.type !== 'ready') continue;
    const given = decisions?.get(entry.call.id);
    if (given === 'deny') {
      prepared[index] = denied(entry, undefined);
      continue;
    }
    if (given === 'run' || (policyHook === undefined && entry.tool.beforeToolCall === undefined)) continue;
    const verdict = await decideToolCall(
      {
        toolCallId: entry.call.id,
        toolName: entry.tool.name,
        arguments: entry.args,
        rawArguments: entry.call.arguments,
        tool: entry.tool,
      },
      context,
      { tool: entry.tool.beforeToolCall, policy: policyHook },
    );
    switch (verdict.type) {
      case 'run':
        break;
      case 'deny':
        prepared[index] = denied(entry, verdict.reason);
        break;
      case 'interrupt':
        interrupted.push({
          toolCallId: entry.call.id,
          toolName: entry.tool.name,
          arguments: entry.call.arguments,
          ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
          ...(verdict.payload === undefined ? {} : { payload: verdict.payload }),
        });
        break;
      case 'callback-failure':
        return { callbackFailure: { callback: 'beforeToolCall', error: verdict.error } };
      default: {
        const unreachable: never = verdict;
        throw new TypeError(`unknown decision ${String(unreachable)}`);
      }
    }
  }
  return interrupted.length > 0 ? { interrupted } : undefined;
}

function hasToolHook(prepared: readonly PreparedCall[]): boolean {
  return prepared.some((entry) => entry.type === 'ready' && entry.tool.beforeToolCall !== undefined);
}

function denied(entry: ReadyCall, reason: string | undefined): RejectedCall {
  return {
    type: 'rejected',
    call: entry.call,
    toolName: entry.tool.name,
    code: 'PERMISSION_DENIED',
    errorClass: 'denied',
    message: 'This action is not permitted.',
    error: new PermissionDeniedError({ message: reason ?? `beforeToolCall denied call ${entry.call.id}` }),
    admitted: entry.admitted,
    invalid: entry.invalid,
    ...(reason === undefined ? {} : { reason }),
  };
}

/** Gives back what the prepared calls added to the counts: none of them will run. */
function release(counts: TurnCounts | undefined, prepared: readonly PreparedCall[]): void {
  if (counts === undefined) return;
  for (const entry of prepared) {
    const name = entry.type === 'ready' ? entry.tool.name : entry.toolName;
    if (entry.admitted) {
      decrement(counts.perTool, name);
      counts.total--;
    }
    if (entry.invalid) decrement(counts.invalidPerTool, name);
  }
}

/** An outcome in which no call ran. */
function halted(fields: Pick<CallsOutcome, 'interrupted' | 'callbackFailure' | 'unknownTool'>): CallsOutcome {
  return { results: [], toolMessages: [], returnDirect: false, validatedArguments: [], ...fields };
}

const defaultNow = (): number => performance.now();

async function runReady(entry: ReadyCall, context: RunContext): Promise<ToolCallResult> {
  const { events } = context;
  const call = {
    base: { toolCallId: entry.call.id, toolName: entry.tool.name },
    argumentsSummary: summaryOf(entry.call, events),
    started: context.now(),
  };
  if (events.listening) {
    events.emit({
      type: 'tool-call-start',
      toolName: call.base.toolName,
      toolCallId: call.base.toolCallId,
      argumentsSummary: call.argumentsSummary,
    });
  }
  let result: ToolCallResult;
  try {
    result = await runToolCall(entry, call, context);
  } catch (error) {
    // A caller's function that the chain calls outside any hook's guard (the jitter source, a clock).
    context.callbackFailed('policy', error);
    result = toolFailure({ base: call.base, error, errorClass: 'fatal', attempts: 0, durationMs: 0 });
  }
  reportEnd(result, call.argumentsSummary, events);
  return result;
}

async function answerRejected(entry: RejectedCall, context: RunContext): Promise<ToolCallResult> {
  const { events } = context;
  const summary = summaryOf(entry.call, events);
  const result: ToolCallResult = {
    type: 'error',
    toolCallId: entry.call.id,
    toolName: entry.toolName,
    code: entry.code,
    errorClass: entry.errorClass,
    error: entry.error ?? entry.message,
    content: formatToolError(entry.code, entry.message),
    attempts: 0,
    durationMs: 0,
  };
  events.emit({
    type: 'tool-call-start',
    toolName: entry.toolName,
    toolCallId: result.toolCallId,
    argumentsSummary: summary,
  });
  reportEnd(result, summary, events, entry);
  return result;
}

/** The summary is only ever shown in events: nobody listening, nothing to redact. */
function summaryOf(call: ToolCall, events: EventSink): string {
  return events.listening ? summarizeArguments(call.arguments, DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS) : '';
}

function reportEnd(
  result: ToolCallResult,
  summary: string,
  events: EventSink,
  rejected?: RejectedCall,
): void {
  if (!events.listening) return;
  const { toolName, toolCallId } = result;
  if (result.type === 'success') {
    events.emit({
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
  const fields = errorFields(result.error, events.includeContent);
  if (result.errorClass === 'denied') {
    const reason = rejected?.reason;
    events.emit({
      type: 'tool-call-denied',
      ...base,
      ...fields,
      ...(reason === undefined ? {} : { reason }),
    });
  }
  const availableTools = rejected?.availableTools;
  events.emit({
    type: 'tool-call-error',
    ...base,
    code: result.code,
    errorClass: result.errorClass,
    durationMs: result.durationMs,
    attempts: result.attempts,
    ...fields,
    ...(availableTools === undefined ? {} : { availableTools }),
  });
  events.emit({
    type: 'tool-call-end',
    ...base,
    outcome: result.errorClass,
    code: result.code,
    durationMs: result.durationMs,
    attempts: result.attempts,
  });
}

function summarize(
  results: ToolCallResult[],
  prepared: readonly PreparedCall[],
  signal: AbortSignal | undefined,
): CallsOutcome {
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
  const validatedArguments: unknown[] = new Array(prepared.length);
  for (let i = 0; i < prepared.length; i++) {
    const entry = prepared[i] as PreparedCall;
    if (entry.type === 'rejected') {
      if (limited === undefined && entry.limit !== undefined) limited = entry;
      validatedArguments[i] = undefined;
      continue;
    }
    validatedArguments[i] = entry.args;
    executed++;
    if (entry.tool.returnDirect) direct++;
  }
  const outcome: Mutable<CallsOutcome> = {
    results,
    toolMessages: results.map(toToolMessage),
    returnDirect: executed > 0 && direct === executed,
    validatedArguments,
  };
  if (fatal !== undefined) outcome.fatal = fatal;
  if (limited !== undefined) outcome.limited = limited;
  if (signal?.aborted === true) outcome.aborted = true;
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
