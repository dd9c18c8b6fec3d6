import { UnknownToolError } from '../core/errors/unknown-tool-error.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import { createEventSink, type EventSink, errorFields } from '../core/tool-event.js';
import type { ToolCallFailure, ToolCallResult } from '../core/tool-execution-result.js';
import type { AnyTool } from '../tools/define-tool.js';
import { effectRules } from '../tools/tool-effect.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { LimitScope } from './call-limits.js';
import { asksBeforeRunning, decideCalls } from './decide.js';
import { executeCall } from './execute.js';
import { findSharedReads } from './find-shared-reads.js';
import { createIdempotencyScope } from './idempotency/idempotency-scope.js';
import { runIdempotent } from './idempotency/run-idempotent.js';
import { giveBack, type TurnCounts } from './limits.js';
import type { PendingCall } from './pending-call.js';
import type { ResolvedPolicy } from './policy.js';
import { type PreparedCall, prepareToolCall, type ReadyCall, type RejectedCall } from './prepare.js';
import { answerRejected, answerShared, decisionOf, reportEnd, summaryOf } from './report-call-events.js';
import type { CallbackFailure, CallsRequest, RunContext } from './run-context.js';
import { runStepped } from './run-stepped.js';
import { toolFailure } from './tool-failure.js';

export type { CallbackFailure, CallsRequest };

/** What the calls of a response run with: the resolved policy and the registry the tools are looked up in. */
export interface CallsChain {
  readonly policy: ResolvedPolicy;
  readonly tools: ToolRegistry;
}

/** A call refused by a call limit: the tool and the limit it reached. */
export interface LimitedCall {
  readonly toolName: string;
  readonly limit: { readonly scope: LimitScope; readonly limit: number };
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
  readonly limited?: LimitedCall;
  /** The first call refused because the store failed (a write fails closed): the tool did not run. */
  readonly storeFailure?: { readonly toolName: string; readonly error: unknown };
  /**
   * Calls that wait for a decision: they did not run (what they added to the counts is given back). The
   * other calls ran: `results` and `toolMessages` are theirs, in the model's order.
   */
  readonly interrupted?: readonly PendingCall[];
  /** The caller's signal aborted: calls not finished by then failed as `ABORTED`. */
  readonly aborted?: boolean;
  /**
   * A caller callback failed. From `authorize`, `beforeToolCall` or `needsApproval`: no call ran. From
   * `wrapToolExecution` or `classifyError`: that call (and the calls sharing its result) failed as
   * `INTERNAL_ERROR`, the others ran.
   */
  readonly callbackFailure?: CallbackFailure;
  /** Under `unknownTool: 'throw'`, the first unknown call: no call ran. */
  readonly unknownTool?: UnknownToolError;
}

/**
 * Runs the tool calls of one assistant message: prepare each in the model's order (lookup, limits,
 * arguments), decide each (`authorize`, `beforeToolCall`, `needsApproval`), then run the ready ones that
 * wait for no decision concurrently (capped; writes one at a time). Identical ready calls to a read tool
 * run once and share the result (`sharedWith`); each still counts as a call and gets its own result and
 * tool message. `counts` is updated as calls are admitted, so a loop can keep one running count for a
 * whole turn. Never rejects.
 */
export async function runToolCalls(request: CallsRequest, chain: CallsChain): Promise<CallsOutcome> {
  const calls = request.assistant.toolCalls ?? [];
  const events = createEventSink(request.onEvent, request.includeContent === true);
  try {
    return await runCalls(calls, request, chain, events);
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
    return summarizeCalls(results, [], request.signal);
  }
}

async function runCalls(
  calls: readonly ToolCall[],
  request: CallsRequest,
  chain: CallsChain,
  events: EventSink,
): Promise<CallsOutcome> {
  const { policy, tools: registry } = chain;
  const { counts, signal } = request;
  const scope =
    request.sessionId === undefined
      ? undefined
      : {
          sessionId: request.sessionId,
          turnId: request.turnId,
          signal: request.signal,
          ceiling: request.counts?.ceiling,
        };
  let prepared: PreparedCall[] = [];
  for (const call of calls) prepared.push(await prepareToolCall(call, { registry, policy, counts, scope }));
  if (events.listening) reportStoreFailures(prepared, events);

  if (policy.unknownTool === 'throw') {
    const unknown = prepared.find((entry) => entry.type === 'rejected' && entry.code === 'UNKNOWN_TOOL');
    if (unknown !== undefined) {
      release(counts, prepared, policy);
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

  let interrupted: readonly PendingCall[] | undefined;
  if (signal?.aborted !== true && asksBeforeRunning(prepared, request, chain)) {
    const decided = await decideCalls(prepared, request, chain);
    if (decided?.callbackFailure !== undefined) {
      release(counts, prepared, policy);
      return halted({ callbackFailure: decided.callbackFailure });
    }
    interrupted = decided?.interrupted;
    if (interrupted !== undefined) {
      // The waiting calls do not run now; the others do.
      const waiting = new Set(interrupted.map((pending) => pending.toolCallId));
      release(
        counts,
        prepared.filter((entry) => waiting.has(entry.call.id)),
        policy,
      );
      prepared = prepared.filter((entry) => !waiting.has(entry.call.id));
      if (prepared.length === 0) return halted({ interrupted });
    }
  }

  let failure: CallbackFailure | undefined;
  let storeFailure: CallsOutcome['storeFailure'];
  let limited: LimitedCall | undefined;
  let keyedByArguments: boolean | undefined;
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
    idempotency: createIdempotencyScope({
      sessionId: request.idempotencyScope ?? request.sessionId,
      turnId: request.turnId,
      runId: request.runId,
      store: policy.store,
      keyedByArguments: () => (keyedByArguments ??= registry.list().some(isKeyedByArguments)),
    }),
    storeFailed: (toolName, error) => {
      storeFailure ??= { toolName, error };
    },
    limitReached: (toolName, limit) => {
      limited ??= { toolName, limit };
    },
  };
  const results =
    prepared.length === 1
      ? [await runPrepared(prepared[0] as PreparedCall, context)]
      : await runConcurrently(prepared, context, findSharedReads(prepared));
  const summarized = summarizeCalls(results, prepared, signal);
  const withStore =
    storeFailure === undefined || summarized.storeFailure !== undefined
      ? summarized
      : { ...summarized, storeFailure };
  const outcome =
    limited === undefined || withStore.limited !== undefined ? withStore : { ...withStore, limited };
  return {
    ...outcome,
    ...(failure === undefined ? {} : { callbackFailure: failure }),
    ...(interrupted === undefined ? {} : { interrupted }),
  };
}

function runPrepared(entry: PreparedCall, context: RunContext): Promise<ToolCallResult> {
  return entry.type === 'rejected' ? answerRejected(entry, context) : runReady(entry, context);
}

/**
 * Several calls at once, capped by the policy (writes one at a time by default). A call that `answeredBy`
 * gives another index does not run: it waits for that call and shares its result.
 */
function runConcurrently(
  prepared: readonly PreparedCall[],
  context: RunContext,
  answeredBy: readonly number[] | undefined,
): Promise<ToolCallResult[]> {
  const all = createSemaphore(context.policy.concurrency);
  const writes = createSemaphore(context.policy.writeConcurrency);
  const running: Promise<ToolCallResult>[] = [];
  for (let index = 0; index < prepared.length; index++) {
    const entry = prepared[index] as PreparedCall;
    const first = answeredBy?.[index] ?? index;
    if (entry.type === 'rejected') running.push(answerRejected(entry, context));
    else if (first !== index)
      running.push(answerShared(entry, running[first] as Promise<ToolCallResult>, context.events));
    else {
      const run = () => all.run(() => runReady(entry, context));
      running.push(effectRules(entry.tool.effect).runsAlone ? writes.run(run) : run());
    }
  }
  return Promise.all(running);
}

/** Gives back what the prepared calls added to the counts (see `giveBack`): none of them will run now. */
function release(
  counts: TurnCounts | undefined,
  prepared: readonly PreparedCall[],
  policy: ResolvedPolicy,
): void {
  giveBack(
    counts,
    prepared.map((entry) => ({
      ...entry,
      toolName: entry.type === 'ready' ? entry.tool.name : entry.toolName,
    })),
    policy.store,
  );
}

/** One event per call the store failed to count (the call ran uncounted, or was refused). */
function reportStoreFailures(prepared: readonly PreparedCall[], events: EventSink): void {
  for (const entry of prepared) {
    const failedOpen = entry.type === 'ready' && entry.storeFailure !== undefined;
    if (!failedOpen && !(entry.type === 'rejected' && entry.storeFailed === true)) continue;
    const error = entry.type === 'ready' ? entry.storeFailure : entry.error;
    events.emit({
      type: 'store-fail',
      operation: 'call-count',
      toolName: entry.type === 'ready' ? entry.tool.name : entry.toolName,
      toolCallId: entry.call.id,
      argumentsSummary: summaryOf(entry.call, events),
      failedOpen,
      ...errorFields(error, events.includeContent),
    });
  }
}

/** An outcome in which no call ran. */
function halted(fields: Pick<CallsOutcome, 'interrupted' | 'callbackFailure' | 'unknownTool'>): CallsOutcome {
  return { results: [], toolMessages: [], returnDirect: false, ...fields };
}

const defaultNow = (): number => performance.now();

/** A tool whose records are keyed by its arguments (the default key), not by a key of its own. */
function isKeyedByArguments(tool: AnyTool): boolean {
  return tool.idempotency !== undefined && tool.idempotency.key === undefined;
}

async function runReady(entry: ReadyCall, context: RunContext): Promise<ToolCallResult> {
  const { events } = context;
  const call = {
    base: { toolCallId: entry.call.id, toolName: entry.tool.name },
    arguments: entry.call.arguments,
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
    const step = context.policy.wrapCallStep;
    result =
      step === undefined
        ? await runIdempotent(entry, call, context, () => executeCall(entry, call, context))
        : await runStepped(step, entry, call, context);
  } catch (error) {
    // A caller's function that the chain calls outside any hook's guard (the jitter source, a clock).
    context.callbackFailed('policy', error);
    result = toolFailure({ base: call.base, error, errorClass: 'fatal', attempts: 0, durationMs: 0 });
  }
  if (entry.approved === true) result = { ...result, ...decisionOf(entry) };
  reportEnd(events, { identity: entry.identity, result, summary: call.argumentsSummary });
  return result;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The outcome of calls that ran: their results and tool messages in order, and what stands out. */
function summarizeCalls(
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
  let storeFailed: RejectedCall | undefined;
  for (let i = 0; i < prepared.length; i++) {
    const entry = prepared[i] as PreparedCall;
    if (entry.type === 'rejected') {
      if (limited === undefined && entry.limit !== undefined) limited = entry;
      if (storeFailed === undefined && entry.storeFailed === true) storeFailed = entry;
      continue;
    }
    executed++;
    if (entry.tool.returnDirect) direct++;
  }
  const outcome: Mutable<CallsOutcome> = {
    results,
    toolMessages: results.map(toToolMessage),
    returnDirect: executed > 0 && direct === executed,
  };
  if (fatal !== undefined) outcome.fatal = fatal;
  if (limited?.limit !== undefined) outcome.limited = { toolName: limited.toolName, limit: limited.limit };
  if (storeFailed !== undefined)
    outcome.storeFailure = { toolName: storeFailed.toolName, error: storeFailed.error };
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

/** A counting semaphore: `run` waits for a free slot, runs the task, frees the slot. */
interface Semaphore {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** A semaphore of `slots` slots. */
function createSemaphore(slots: number): Semaphore {
  let free = slots;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return {
    async run(task) {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
