import type { ErrorClass } from '../core/error-class.js';
import { ToolTimeoutError } from '../core/errors/tool-timeout-error.js';
import { errorFields } from '../core/tool-event.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import { opensError } from '../gate/show-error-messages.js';
import type { AnyTool } from '../tools/define-tool.js';
import { resolveErrorClass } from './classify-error.js';
import { deliverResult } from './deliver.js';
import type { ReadyCall } from './prepare.js';
import { retryDelay, sleep } from './retry-delay.js';
import type { RunContext, RunningCall } from './run-context.js';
import { ToolCallContext } from './tool-call-context.js';
import { toolFailure } from './tool-failure.js';
import { withTimeout } from './with-timeout.js';
import { isResultOf, type WrappedToolCall, type WrapToolExecution } from './wrap-tool-execution.js';

/**
 * Runs one validated call: inside the policy's `wrapToolExecution` when there is one, the attempts (each
 * under its timeout, transient failures retried with backoff) and the delivery of the result. Never
 * rejects: a wrapper that fails is recorded as a callback failure and the call fails as `INTERNAL_ERROR`.
 */
export function executeCall(
  ready: ReadyCall,
  call: RunningCall,
  context: RunContext,
): Promise<ToolCallResult> {
  const wrap = context.policy.wrapToolExecution;
  return wrap === undefined ? attempt(ready, call, context) : wrapped(wrap, ready, call, context);
}

/** The call as a `wrapToolExecution` middleware or a `wrapCallStep` sees it. */
export function wrappedCallOf(ready: ReadyCall, call: RunningCall, context: RunContext): WrappedToolCall {
  return {
    toolCallId: call.base.toolCallId,
    toolName: call.base.toolName,
    tool: ready.tool,
    arguments: ready.args,
    turnId: context.turnId,
    sessionId: context.sessionId,
    data: context.data,
  };
}

async function wrapped(
  wrap: WrapToolExecution,
  ready: ReadyCall,
  call: RunningCall,
  context: RunContext,
): Promise<ToolCallResult> {
  const info = wrappedCallOf(ready, call, context);
  let result: unknown;
  try {
    result = await wrap(info, () => attempt(ready, call, context));
  } catch (error) {
    return wrapperFailed(call, context, error);
  }
  if (!isResultOf(result, call.base.toolCallId)) {
    return wrapperFailed(
      call,
      context,
      new TypeError(`wrapToolExecution must resolve with a result of call ${call.base.toolCallId}`),
    );
  }
  return result;
}

/** The retry loop, in the shape of p-retry. */
async function attempt(ready: ReadyCall, call: RunningCall, context: RunContext): Promise<ToolCallResult> {
  const { tool, args } = ready;
  const { policy, signal } = context;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted)
      return failure(call, context, { error: signal.reason, errorClass: 'aborted', attempts: attempt - 1 });
    const toolContext = new ToolCallContext({
      toolCallId: call.base.toolCallId,
      toolName: call.base.toolName,
      attempt,
      turnId: context.turnId,
      sessionId: context.sessionId,
      data: context.data,
      parent: signal,
    });
    let value: unknown;
    try {
      value = await withTimeout(() => tool.execute(args, toolContext), {
        timeoutMs: policy.timeoutFor(tool),
        timeoutError: () => new ToolTimeoutError({ toolName: tool.name, timeoutMs: policy.timeoutFor(tool) }),
        signal,
        abort: (reason) => toolContext.abort(reason),
      });
    } catch (error) {
      if (signal?.aborted)
        return failure(call, context, { error: signal.reason, errorClass: 'aborted', attempts: attempt });
      const errorClass = classify(error, ready, context);
      if (errorClass !== 'transient' || attempt > policy.retriesFor(tool)) {
        return failure(call, context, { error, errorClass, attempts: attempt }, tool);
      }
      const delayMs = retryDelay(attempt, {
        baseDelayMs: policy.baseDelayMs,
        maxDelayMs: policy.maxDelayMs,
        random: policy.random,
        retryAfterMs: readRetryAfter(error),
      });
      context.events.emit({
        type: 'tool-call-retry',
        ...call.base,
        argumentsSummary: call.argumentsSummary,
        attempt: attempt + 1,
        delayMs,
        ...errorFields(error, context.events.includeContent),
      });
      try {
        await sleep(delayMs, signal);
      } catch {
        return failure(call, context, { error: signal?.reason, errorClass: 'aborted', attempts: attempt });
      }
      continue;
    }
    return await deliverResult({ tool, call, context, attempt }, value);
  }
}

/** The tool's classifier, then the policy's, then the built-in one; a classifier that throws is a defect. */
function classify(error: unknown, ready: ReadyCall, context: RunContext): ErrorClass {
  try {
    return resolveErrorClass(error, ready.tool.classifyError, context.policy.classifyError);
  } catch (defect) {
    context.callbackFailed('classifyError', defect);
    return 'fatal';
  }
}

/**
 * A failed call. `tool` is given for a failure of the tool's own execute: then the tool's (or the policy's)
 * `showErrorMessages` may open an error of unknown provenance to the model.
 */
function failure(
  call: RunningCall,
  context: RunContext,
  {
    error,
    errorClass,
    attempts,
  }: { readonly error: unknown; readonly errorClass: ErrorClass; readonly attempts: number },
  tool?: AnyTool,
): ToolCallResult {
  return toolFailure({
    base: call.base,
    error,
    errorClass,
    attempts,
    durationMs: context.now() - call.started,
    sent: call.arguments,
    ...(tool === undefined ? {} : { optedIn: (thrown: unknown) => optedIn(thrown, tool, context) }),
  });
}

/** Whether the tool's or the policy's `showErrorMessages` opens `error`; a function that throws opens nothing and fails the execution's callback. */
function optedIn(error: unknown, tool: AnyTool, context: RunContext): boolean {
  try {
    return opensError(context.policy.showErrorMessagesFor(tool), error);
  } catch (defect) {
    context.callbackFailed('showErrorMessages', defect);
    return false;
  }
}

function wrapperFailed(call: RunningCall, context: RunContext, error: unknown): ToolCallResult {
  context.callbackFailed('wrapToolExecution', error);
  return failure(call, context, { error, errorClass: 'fatal', attempts: 0 });
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
