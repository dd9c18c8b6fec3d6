import { argumentsDigest } from '../chain/arguments-digest.js';
import { type PendingCall, pendingCall } from '../chain/pending-call.js';
import type { AssistantMessage, Message, ToolCall } from '../core/message.js';
import { list, only, problem, record, text } from './state-fields.js';

/**
 * The paused round: the last assistant message, then the tool messages of the calls that ran (each
 * answering one of its calls, once), and a pending entry for every other call, as the model made it:
 * answered and waiting add up to the round's calls. Summaries are computed again (what a person reads
 * comes from the call itself); a digest must be the call's.
 */
export function readPending(value: unknown, messages: readonly Message[], version: number): PendingCall[] {
  let at = messages.length - 1;
  while (at >= 0 && messages[at]?.role === 'tool') at--;
  const last = messages[at];
  if (
    last?.role !== 'assistant' ||
    last.toolCalls === undefined ||
    (version === 1 && at !== messages.length - 1)
  ) {
    throw problem(
      'tampered',
      'pending',
      "the history does not end with the paused round's assistant message",
    );
  }
  const calls = new Map((last as AssistantMessage).toolCalls?.map((call) => [call.id, call]));
  if (calls.size !== last.toolCalls.length) {
    throw problem('tampered', `messages.${at}.toolCalls`, 'two calls of the paused round share an id');
  }
  const answered = new Set<string>();
  for (let index = at + 1; index < messages.length; index++) {
    const id = (messages[index] as { toolCallId: string }).toolCallId;
    if (!calls.has(id) || answered.has(id)) {
      throw problem(
        'tampered',
        `messages.${index}.toolCallId`,
        'answers no waiting call of the paused round',
      );
    }
    answered.add(id);
  }
  const entries = list(value, 'pending');
  if (entries.length === 0) throw problem('tampered', 'pending', 'is empty');
  const waiting = new Map<string, PendingCall>();
  for (const [index, entry] of entries.entries()) {
    const path = `pending.${index}`;
    const read = readPendingEntry(entry, path, version);
    const call = calls.get(read.toolCallId);
    if (call === undefined || answered.has(read.toolCallId) || waiting.has(read.toolCallId)) {
      throw problem('tampered', `${path}.toolCallId`, 'names no unanswered call of the paused round');
    }
    if (read.toolName !== call.name || read.arguments !== call.arguments) {
      throw problem('tampered', path, 'differs from the call the model made');
    }
    if (
      read.argumentsDigest !== undefined &&
      read.argumentsDigest !== argumentsDigest(call.name, call.arguments)
    ) {
      throw problem('tampered', `${path}.argumentsDigest`, "is not the digest of the call's arguments");
    }
    waiting.set(read.toolCallId, pendingCall(read));
  }
  const calledIds = [...calls.keys()];
  if (version === 1) {
    // Version 1 paused before any call of the round ran: the calls not listed were to be asked again.
    return calledIds.map((id) => {
      const call = calls.get(id) as ToolCall;
      return (
        waiting.get(id) ?? pendingCall({ toolCallId: id, toolName: call.name, arguments: call.arguments })
      );
    });
  }
  if (answered.size + waiting.size !== calls.size) {
    throw problem(
      'tampered',
      'pending',
      'the answered and the waiting calls do not add up to the calls of the round',
    );
  }
  return calledIds.filter((id) => waiting.has(id)).map((id) => waiting.get(id) as PendingCall);
}

/** One pending entry's fields, checked. */
function readPendingEntry(
  entry: unknown,
  path: string,
  version: number,
): {
  toolCallId: string;
  toolName: string;
  arguments: string;
  argumentsDigest?: string;
  reason?: string;
  payload?: unknown;
} {
  const pending = record(entry, path);
  const v1 = ['toolCallId', 'toolName', 'arguments', 'reason', 'payload'];
  only(pending, path, version === 1 ? v1 : [...v1, 'argumentsSummary', 'argumentsDigest']);
  if (version !== 1) text(pending.argumentsSummary, `${path}.argumentsSummary`);
  return {
    toolCallId: text(pending.toolCallId, `${path}.toolCallId`),
    toolName: text(pending.toolName, `${path}.toolName`),
    arguments: text(pending.arguments, `${path}.arguments`),
    ...(version === 1
      ? {}
      : { argumentsDigest: text(pending.argumentsDigest, `${path}.argumentsDigest`, 64) }),
    ...(pending.reason === undefined ? {} : { reason: text(pending.reason, `${path}.reason`, 1000) }),
    ...(pending.payload === undefined ? {} : { payload: structuredClone(pending.payload) }),
  };
}
