import { IdempotencyError, type IdempotencyProblem } from '../../core/errors/idempotency-error.js';
import { errorFields } from '../../core/tool-event.js';
import type { ToolCallFailure, ToolCallResult, ToolErrorCode } from '../../core/tool-execution-result.js';
import { formatToolError } from '../../gate/format-tool-error.js';
import { truncateText } from '../../serialize/truncate-text.js';
import { type LimitScope, limitModelText } from '../call-limits.js';
import type { RunContext, RunningCall } from '../run-context.js';
import { toolFailure } from '../tool-failure.js';
import type { RecordedResult } from './idempotency-record.js';

/** What the model reads first in a replayed success: that nothing ran, then the result it had then. */
export const REPLAYED_SUCCESS_TEXT =
  'Already done: an identical earlier call did this, so it was not run again. Its result then: ';
/** What follows the code of a replayed failure, before what the model was told then. */
export const REPLAYED_FAILURE_TEXT =
  'An identical earlier call already ran and failed, so it was not run again. It was told then: ';

/**
 * The answer of a duplicate: the recorded result, under this call's id, marked `replayOf` the call that
 * ran, its content saying plainly that the action was already done and was not run again. Recorded text
 * longer than the tool's `maxResultChars` now is cut (the record is the store's, not the model's).
 */
export function replayedResult(
  recorded: RecordedResult,
  claimedBy: string,
  call: RunningCall,
  context: RunContext,
  maxChars: number,
): ToolCallResult {
  const shown = (text: string) => (text.length <= maxChars ? text : truncateText(text, maxChars).text);
  const common = {
    toolCallId: call.base.toolCallId,
    toolName: call.base.toolName,
    attempts: 0,
    durationMs: context.now() - call.started,
    replayOf: claimedBy,
  };
  if (!recorded.isError) {
    return {
      type: 'success',
      ...common,
      content: `${REPLAYED_SUCCESS_TEXT}${shown(recorded.content)}`,
      value: recorded.value,
      truncated: recorded.truncated === true,
    };
  }
  const code = recorded.errorCode as ToolErrorCode;
  const prefix = `${code}: `;
  const told = recorded.content.startsWith(prefix) ? recorded.content.slice(prefix.length) : recorded.content;
  return {
    type: 'error',
    ...common,
    code,
    errorClass: recorded.errorClass ?? 'invalid-input',
    error: recorded.content,
    content: `${prefix}${REPLAYED_FAILURE_TEXT}${shown(told)}`,
  };
}

/**
 * The content of a result as its tool gave it: for a replay, the recorded text without what says it was
 * already done. The loop guard compares results by it, so a repeated write is the same result repeated,
 * as it was when the write ran each time.
 */
export function originalContent(result: ToolCallResult): string {
  const { content } = result;
  if (result.replayOf === undefined) return content;
  if (result.type === 'success') {
    return content.startsWith(REPLAYED_SUCCESS_TEXT) ? content.slice(REPLAYED_SUCCESS_TEXT.length) : content;
  }
  const prefix = `${result.code}: ${REPLAYED_FAILURE_TEXT}`;
  return content.startsWith(prefix) ? `${result.code}: ${content.slice(prefix.length)}` : content;
}

/** What the model is told, per reason a write was not run. */
const TOLD: Readonly<Record<IdempotencyProblem, (toolName: string) => string>> = {
  conflict: (name) =>
    `Tool '${name}' already did this action with other arguments, so this call was not run. Do not retry it with changed arguments: tell the user what was already done, or ask how to proceed.`,
  'in-progress': (name) =>
    `An identical call to tool '${name}' is still running, so this one was not run. Do not call it again now; check later whether it was done.`,
  'unknown-outcome': (name) =>
    `An identical earlier call to tool '${name}' was interrupted before its outcome was recorded: it may or may not have taken effect, so this call was not run. Do not retry it; tell the user the outcome has to be checked.`,
};

/** A write refused by its record: a conflict, a call still in progress, an unknown outcome. */
export function refusedResult(
  reason: IdempotencyProblem,
  claimedBy: string,
  call: RunningCall,
  context: RunContext,
): ToolCallFailure {
  const error = new IdempotencyError({ reason, claimedBy, ...call.base });
  return failure(call, context, {
    code: error.code,
    // The model can act on a conflict or an unknown outcome (stop, tell the user); a call in progress is
    // a temporary state, as an unavailable tool is.
    errorClass: reason === 'in-progress' ? 'transient' : 'invalid-input',
    error,
    text: TOLD[reason](call.base.toolName),
  });
}

/** A write not run because its claim found a limit of the turn or the session reached (counted with the claim). */
export function limitedResult(
  limit: { readonly scope: LimitScope; readonly limit: number },
  call: RunningCall,
  context: RunContext,
): ToolCallFailure {
  const text = limitModelText(limit, call.base.toolName);
  context.limitReached(call.base.toolName, limit);
  return failure(call, context, { code: 'TOOL_CALL_LIMIT', errorClass: 'invalid-input', error: text, text });
}

/**
 * A write not run because its record could not be read or claimed (the store failed, or holds something
 * toolwarden did not write): it fails closed, as unavailable; `error` is the store's failure.
 */
function unavailableResult(error: unknown, call: RunningCall, context: RunContext): ToolCallFailure {
  return failure(call, context, {
    code: 'TOOL_UNAVAILABLE',
    errorClass: 'transient',
    error,
    text: `Tool '${call.base.toolName}' is unavailable right now: whether this action was already done cannot be checked, so it was not run. Do not assume it ran; answer with what you have or try again later.`,
  });
}

/**
 * A write not run because a store call before it failed, hung or found something toolwarden did not write:
 * `ABORTED` when the caller gave up meanwhile, else unavailable, with the execution's store failure and a
 * `store-fail` event (the event of a reservation the store failed).
 */
export function storeCallFailed(error: unknown, call: RunningCall, context: RunContext): ToolCallFailure {
  const { signal, events } = context;
  if (signal?.aborted === true) {
    const durationMs = context.now() - call.started;
    return toolFailure({
      base: call.base,
      error: signal.reason,
      errorClass: 'aborted',
      attempts: 0,
      durationMs,
    });
  }
  context.storeFailed(call.base.toolName, error);
  if (events.listening) {
    events.emit({
      type: 'store-fail',
      operation: 'idempotency',
      ...call.base,
      argumentsSummary: call.argumentsSummary,
      failedOpen: false,
      ...errorFields(error, events.includeContent),
    });
  }
  return unavailableResult(error, call, context);
}

function failure(
  call: RunningCall,
  context: RunContext,
  detail: Pick<ToolCallFailure, 'code' | 'errorClass' | 'error'> & { readonly text: string },
): ToolCallFailure {
  return {
    type: 'error',
    ...call.base,
    code: detail.code,
    errorClass: detail.errorClass,
    error: detail.error,
    content: formatToolError(detail.code, [detail.text]),
    attempts: 0,
    durationMs: context.now() - call.started,
  };
}
