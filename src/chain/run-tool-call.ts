import { resolveErrorClass } from './classify-error.js';
import { type DeliveryContext, deliverResult } from './deliver-result.js';
import type { ResolvedPolicy } from './execution-policy.js';
import type { ReadyCall } from './prepare-tool-call.js';
import { retryDelay, sleep } from './retry-delay.js';
import { isThenable, settleWithTimeout } from './run-with-timeout.js';
import { ToolCallContext } from './tool-call-context.js';
import { emitTo } from './tool-event.js';
import type { ToolCallResult } from './tool-execution-result.js';
import { toolFailure } from './tool-failure.js';

export interface RunContext {
  readonly policy: ResolvedPolicy;
  readonly signal: AbortSignal | undefined;
  readonly data: unknown;
  readonly turnId: string | undefined;
  readonly sessionId: string | undefined;
  /** Milliseconds since an arbitrary origin (default `performance.now`). */
  readonly now: () => number;
}

/** A failed attempt; anything else an attempt returns is the tool's value (no wrapper on the hot path). */
class Failed {
  constructor(readonly error: unknown) {}
}

/** One call's run: what every attempt and the delivery of its result need. */
class CallState implements DeliveryContext {
  readonly tool: ReadyCall['tool'];
  readonly base: { readonly toolCallId: string; readonly toolName: string };
  readonly policy: ResolvedPolicy;
  readonly started: number;

  constructor(
    readonly ready: ReadyCall,
    readonly context: RunContext,
    readonly argumentsSummary: string,
  ) {
    this.tool = ready.tool;
    this.base = { toolCallId: String(ready.call.id), toolName: ready.tool.name };
    this.policy = context.policy;
    this.started = context.now();
  }

  elapsed(): number {
    return this.context.now() - this.started;
  }
}

/**
 * Runs one validated call: timeout, retries of transient failures, classification, serialization.
 * A synchronous tool that succeeds is answered synchronously (no promise, no timer): the hot path.
 */
export function runToolCall(
  ready: ReadyCall,
  context: RunContext,
  argumentsSummary: string,
): ToolCallResult | Promise<ToolCallResult> {
  return attemptThen(new CallState(ready, context, argumentsSummary), 1);
}

function attemptThen(state: CallState, attempt: number): ToolCallResult | Promise<ToolCallResult> {
  const settled = runAttempt(state, attempt);
  return settled instanceof Promise
    ? settled.then((outcome) => afterAttempt(state, attempt, outcome))
    : afterAttempt(state, attempt, settled);
}

/** Runs the tool once: the value (synchronously when the tool is synchronous), or `Failed`. */
function runAttempt(state: CallState, attempt: number): unknown {
  const { tool, args } = state.ready;
  const { context } = state;
  const parent = context.signal;
  if (parent?.aborted) return new Failed(parent.reason);
  const toolContext = new ToolCallContext(
    state.base.toolCallId,
    tool.name,
    attempt,
    context.turnId,
    context.sessionId,
    context.data,
    parent,
  );
  let value: unknown;
  try {
    value = tool.execute(args, toolContext);
  } catch (error) {
    return new Failed(error);
  }
  if (!isThenable(value)) return value;
  return settleWithTimeout(value, {
    timeoutMs: context.policy.timeoutFor(tool),
    toolName: tool.name,
    parent,
    abort: (reason) => toolContext.abort(reason),
  }).then(
    (resolved) => resolved,
    (error: unknown) => new Failed(error),
  );
}

function afterAttempt(
  state: CallState,
  attempt: number,
  settled: unknown,
): ToolCallResult | Promise<ToolCallResult> {
  const { tool } = state.ready;
  const { policy } = state.context;
  if (!(settled instanceof Failed)) {
    return deliverResult(state, attempt, settled);
  }
  const { error } = settled;
  const errorClass = resolveErrorClass(error, tool.classifyError, policy.classifyError);
  const aborted = state.context.signal?.aborted === true;
  if (errorClass !== 'transient' || attempt > policy.retriesFor(tool) || aborted) {
    return toolFailure(state.base, error, errorClass, attempt, state.context.now() - state.started);
  }
  const delayMs = retryDelay(attempt, {
    baseDelayMs: policy.baseDelayMs,
    maxDelayMs: policy.maxDelayMs,
    random: policy.random,
    retryAfterMs: readRetryAfter(error),
  });
  emitTo(policy.onEvent, {
    type: 'tool-call-retry',
    ...state.base,
    argumentsSummary: state.argumentsSummary,
    attempt: attempt + 1,
    delayMs,
    error,
  });
  return sleep(delayMs, state.context.signal).then(
    () => attemptThen(state, attempt + 1),
    () => toolFailure(state.base, error, errorClass, attempt, state.context.now() - state.started),
  );
}

function readRetryAfter(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  try {
    const value = (error as { retryAfterMs?: unknown }).retryAfterMs;
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
