import { DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS } from '../core/defaults.js';
import type { ToolCall } from '../core/message.js';
import { type EventSink, errorFields } from '../core/tool-event.js';
import type { ToolCallResult } from '../core/tool-execution-result.js';
import { formatToolError } from '../gate/format-tool-error.js';
import { plainText } from '../gate/model-text.js';
import { summarizeArguments } from '../redact/redact.js';
import { sharedResult } from './find-shared-reads.js';
import { CallIdentity, type PreparedCall, type ReadyCall, type RejectedCall } from './prepare.js';
import type { RunContext } from './run-context.js';

/** Answers a call refused before its tool ran, with its start and end events. */
export async function answerRejected(entry: RejectedCall, context: RunContext): Promise<ToolCallResult> {
  const { events } = context;
  const summary = summaryOf(entry.call, events);
  const result: ToolCallResult = {
    type: 'error',
    toolCallId: entry.call.id,
    toolName: entry.toolName,
    code: entry.code,
    errorClass: entry.errorClass,
    error: entry.error ?? plainText(entry.text),
    content: formatToolError(entry.code, entry.text),
    attempts: 0,
    durationMs: 0,
    ...decisionOf(entry),
  };
  events.emit({
    type: 'tool-call-start',
    toolName: entry.toolName,
    toolCallId: result.toolCallId,
    argumentsSummary: summary,
  });
  reportEnd(events, {
    identity: entry.identity ?? new CallIdentity(entry.toolName, entry.call.arguments),
    result,
    summary,
    rejected: entry,
  });
  return result;
}

/**
 * Answers a call with the result of the identical call that ran (`ran`), once that one has ended: its
 * start and end events follow the shared call's end, and its end event carries `sharedWith`.
 */
export async function answerShared(
  entry: ReadyCall,
  ran: Promise<ToolCallResult>,
  events: EventSink,
): Promise<ToolCallResult> {
  const result: ToolCallResult = { ...sharedResult(await ran, entry.call.id), ...decisionOf(entry) };
  if (!events.listening) return result;
  const summary = summaryOf(entry.call, events);
  events.emit({
    type: 'tool-call-start',
    toolName: result.toolName,
    toolCallId: result.toolCallId,
    argumentsSummary: summary,
  });
  reportEnd(events, { identity: entry.identity, result, summary });
  return result;
}

/** The decision given on resume for the call, as result fields (`approval`, `decidedBy`); none without one. */
export function decisionOf(entry: PreparedCall): Pick<ToolCallResult, 'approval' | 'decidedBy'> {
  const decided = entry.type === 'ready' ? entry.approved === true : entry.decided === true;
  if (!decided) return {};
  const approval = entry.type === 'ready' ? 'approved' : 'denied';
  return entry.decidedBy === undefined ? { approval } : { approval, decidedBy: entry.decidedBy };
}

/** The summary is only ever shown in events: nobody listening, nothing to redact. */
export function summaryOf(call: ToolCall, events: EventSink): string {
  return events.listening ? summarizeArguments(call.arguments, DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS) : '';
}

/**
 * The call's one `tool-call-end` event: its outcome, and for a failure its code, type, denial reason or the
 * tools available. It carries the call's identity, whose digest is worked out when a listener first reads it.
 */
export function reportEnd(
  events: EventSink,
  {
    identity,
    result,
    summary,
    rejected,
  }: {
    readonly identity: CallIdentity;
    readonly result: ToolCallResult;
    readonly summary: string;
    readonly rejected?: RejectedCall;
  },
): void {
  if (!events.listening) return;
  const { toolName, toolCallId, sharedWith, replayOf, decidedBy } = result;
  const approval =
    result.approval === undefined
      ? {}
      : { approval: result.approval, ...(decidedBy === undefined ? {} : { decidedBy }) };
  const base = {
    toolName,
    toolCallId,
    argumentsSummary: summary,
    ...(sharedWith === undefined ? {} : { sharedWith }),
    ...(replayOf === undefined ? {} : { replayOf }),
  };
  if (result.type === 'success') {
    events.emit({
      type: 'tool-call-end',
      ...base,
      outcome: 'success',
      identity,
      ...approval,
      durationMs: result.durationMs,
      attempts: result.attempts,
    });
    return;
  }
  const availableTools = rejected?.availableTools;
  const denialReason = result.errorClass === 'denied' ? rejected?.reason : undefined;
  events.emit({
    type: 'tool-call-end',
    ...base,
    outcome: result.errorClass,
    identity,
    ...approval,
    code: result.code,
    durationMs: result.durationMs,
    attempts: result.attempts,
    ...errorFields(result.error, events.includeContent),
    ...(availableTools === undefined ? {} : { availableTools }),
    ...(denialReason === undefined ? {} : { denialReason }),
  });
}
