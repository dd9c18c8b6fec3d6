import type { ToolContext } from '../tools/tool-context.js';
import { resolveErrorClass } from './classify-error.js';
import { deliverResult } from './deliver-result.js';
import type { ResolvedPolicy } from './execution-policy.js';
import type { ReadyCall } from './prepare-tool-call.js';
import { retryDelay, sleep } from './retry-delay.js';
import { runWithTimeout } from './run-with-timeout.js';
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

type Settled =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

interface CallState {
  readonly ready: ReadyCall;
  readonly context: RunContext;
  readonly argumentsSummary: string;
  readonly base: { readonly toolCallId: string; readonly toolName: string };
  readonly started: number;
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
  const state: CallState = {
    ready,
    context,
    argumentsSummary,
    base: { toolCallId: String(ready.call.id), toolName: ready.tool.name },
    started: context.now(),
  };
  return attemptThen(state, 1);
}

function attemptThen(state: CallState, attempt: number): ToolCallResult | Promise<ToolCallResult> {
  const settled = runAttempt(state, attempt);
  return isSettledPromise(settled)
    ? settled.then((outcome) => afterAttempt(state, attempt, outcome))
    : afterAttempt(state, attempt, settled);
}

function runAttempt(state: CallState, attempt: number): Settled | Promise<Settled> {
  const { tool, args } = state.ready;
  const { policy } = state.context;
  try {
    const value = runWithTimeout(
      (signal) =>
        tool.execute(
          args,
          new ToolCallContext(state.base.toolCallId, tool.name, attempt, signal, state.context),
        ),
      { timeoutMs: policy.timeoutFor(tool), toolName: tool.name, parent: state.context.signal },
    );
    if (value instanceof Promise) {
      return value.then(
        (resolved: unknown): Settled => ({ ok: true, value: resolved }),
        (error: unknown): Settled => ({ ok: false, error }),
      );
    }
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

function afterAttempt(
  state: CallState,
  attempt: number,
  settled: Settled,
): ToolCallResult | Promise<ToolCallResult> {
  const { tool } = state.ready;
  const { policy } = state.context;
  if (settled.ok) {
    return deliverResult(
      {
        tool,
        base: state.base,
        policy,
        argumentsSummary: state.argumentsSummary,
        elapsed: () => state.context.now() - state.started,
      },
      attempt,
      settled.value,
    );
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

function isSettledPromise(value: Settled | Promise<Settled>): value is Promise<Settled> {
  return value instanceof Promise;
}

/** The tool's context; `signal` is made on first read (a class, so the getter lives on one prototype). */
class ToolCallContext implements ToolContext {
  readonly turnId: string | undefined;
  readonly sessionId: string | undefined;
  readonly data: unknown;
  readonly #makeSignal: () => AbortSignal;

  constructor(
    readonly toolCallId: string,
    readonly toolName: string,
    readonly attempt: number,
    makeSignal: () => AbortSignal,
    context: RunContext,
  ) {
    this.#makeSignal = makeSignal;
    this.turnId = context.turnId;
    this.sessionId = context.sessionId;
    this.data = context.data;
  }

  get signal(): AbortSignal {
    return this.#makeSignal();
  }
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
