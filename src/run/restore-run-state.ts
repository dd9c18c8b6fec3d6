import { argumentsDigest } from '../chain/arguments-digest.js';
import { pendingCall } from '../chain/pending-call.js';
import { RunStateError } from '../errors/run-state-error.js';
import { EMPTY_GUARD_STATE, type GuardState } from '../guard/guard-types.js';
import { restoreGuardState } from '../guard/restore-guard-state.js';
import type { AssistantMessage, Message, ToolCall } from '../messages/message.js';
import { type PendingCall, RUN_STATE_SCHEMA_VERSION, type RunState } from './run-state.js';

/** The versions read: the current one, and version 1 (a paused round whose calls had not run), upgraded. */
const READABLE_VERSIONS: readonly number[] = [1, RUN_STATE_SCHEMA_VERSION];

/** Saved JSON nested deeper than this is refused before it is read (a run state is shallow; payloads are small). */
const MAX_DEPTH = 64;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const STATE_KEYS = new Set([
  'schemaVersion',
  'runId',
  'sessionId',
  'turnId',
  'messages',
  'pending',
  'roundTrips',
  'usage',
  'elapsedMs',
  'toolCalls',
  'nextCallId',
  'guard',
]);

/**
 * Reads a saved run state (an object, or its JSON text) into a fresh, checked copy, or refuses it with a
 * `RunStateError` that says why and where: `malformed` (not JSON, a field of the wrong type),
 * `unsupported-version` (another `schemaVersion`), `tampered` (prototype keys, unknown fields, values that
 * contradict each other). All or nothing: nothing of a refused state is used. A state of version 1 is
 * upgraded: every unanswered call of its paused round waits (the undecided ones are asked again).
 */
export function restoreRunState(saved: unknown): RunState {
  let value = saved;
  if (typeof saved === 'string') {
    try {
      value = JSON.parse(saved);
    } catch (error) {
      throw problem('malformed', '', 'the saved run state is not valid JSON (truncated?)', error);
    }
  }
  try {
    return restore(value);
  } catch (error) {
    if (error instanceof RunStateError) throw error;
    // A throwing getter or Proxy trap in a state passed as an object.
    throw problem('malformed', '', 'the saved run state cannot be read', error);
  }
}

function restore(value: unknown): RunState {
  const state = record(value, '');
  const version = state.schemaVersion;
  if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version)) {
    const said =
      typeof version === 'number'
        ? `it has schemaVersion ${version}; this version of toolwarden reads ${READABLE_VERSIONS.join(' and ')}`
        : 'it has no numeric schemaVersion';
    throw problem('unsupported-version', 'schemaVersion', said);
  }
  checkKeys(value, '', 0);
  for (const key of Object.keys(state)) {
    if (!STATE_KEYS.has(key))
      throw problem('tampered', key, `unknown field ${JSON.stringify(key.slice(0, 100))}`);
  }
  const runId = text(state.runId, 'runId', 200);
  if (!/^[A-Za-z0-9-]+$/.test(runId)) throw problem('tampered', 'runId', 'not an id toolwarden writes');
  const messages = list(state.messages, 'messages').map((message, index) =>
    readMessage(message, `messages.${index}`),
  );
  const usage = record(state.usage, 'usage');
  const inputTokens = count(usage.inputTokens, 'usage.inputTokens');
  const outputTokens = count(usage.outputTokens, 'usage.outputTokens');
  const totalTokens = count(usage.totalTokens, 'usage.totalTokens');
  if (totalTokens !== Math.min(Number.MAX_SAFE_INTEGER, inputTokens + outputTokens)) {
    throw problem('tampered', 'usage.totalTokens', 'is not inputTokens + outputTokens');
  }
  const elapsedMs = state.elapsedMs;
  if (typeof elapsedMs !== 'number' || !Number.isFinite(elapsedMs) || elapsedMs < 0) {
    throw problem('malformed', 'elapsedMs', 'must be a finite number >= 0');
  }
  const nextCallId = count(state.nextCallId, 'nextCallId');
  if (nextCallId < 1) throw problem('tampered', 'nextCallId', 'must be at least 1');
  const pending = state.pending === undefined ? undefined : readPending(state.pending, messages, version);
  const guard = state.guard === undefined ? undefined : readGuard(state.guard);
  return {
    schemaVersion: RUN_STATE_SCHEMA_VERSION,
    runId,
    ...(state.sessionId === undefined ? {} : { sessionId: text(state.sessionId, 'sessionId', 1000) }),
    ...(state.turnId === undefined ? {} : { turnId: text(state.turnId, 'turnId', 1000) }),
    messages,
    ...(pending === undefined ? {} : { pending }),
    roundTrips: count(state.roundTrips, 'roundTrips'),
    usage: { inputTokens, outputTokens, totalTokens },
    elapsedMs,
    toolCalls: count(state.toolCalls, 'toolCalls'),
    nextCallId,
    ...(guard === undefined ? {} : { guard }),
  };
}

function readMessage(value: unknown, path: string): Message {
  const message = record(value, path);
  const role = message.role;
  switch (role) {
    case 'system':
    case 'user':
      only(message, path, ['role', 'content']);
      return { role, content: text(message.content, `${path}.content`) };
    case 'assistant': {
      only(message, path, ['role', 'content', 'toolCalls']);
      const content = text(message.content, `${path}.content`);
      if (message.toolCalls === undefined) return { role, content };
      const toolCalls = list(message.toolCalls, `${path}.toolCalls`).map((call, index) =>
        readCall(call, `${path}.toolCalls.${index}`),
      );
      return { role, content, toolCalls };
    }
    case 'tool': {
      only(message, path, ['role', 'toolCallId', 'name', 'content', 'isError', 'errorCode', 'note']);
      if (typeof message.isError !== 'boolean')
        throw problem('malformed', `${path}.isError`, 'must be a boolean');
      return {
        role,
        toolCallId: text(message.toolCallId, `${path}.toolCallId`),
        name: text(message.name, `${path}.name`),
        content: text(message.content, `${path}.content`),
        isError: message.isError,
        ...(message.errorCode === undefined
          ? {}
          : { errorCode: text(message.errorCode, `${path}.errorCode`, 100) }),
        ...(message.note === undefined ? {} : { note: text(message.note, `${path}.note`) }),
      };
    }
    default:
      throw problem('malformed', `${path}.role`, 'must be system, user, assistant or tool');
  }
}

function readCall(value: unknown, path: string): ToolCall {
  const call = record(value, path);
  only(call, path, ['id', 'name', 'arguments']);
  return {
    id: text(call.id, `${path}.id`),
    name: text(call.name, `${path}.name`),
    arguments: text(call.arguments, `${path}.arguments`),
  };
}

/**
 * The paused round: the last assistant message, then the tool messages of the calls that ran (each
 * answering one of its calls, once), and a pending entry for every other call, as the model made it:
 * answered and waiting add up to the round's calls. Summaries are computed again (what a person reads
 * comes from the call itself); a digest must be the call's.
 */
function readPending(value: unknown, messages: readonly Message[], version: number): PendingCall[] {
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

/**
 * The guard's memory must restore as it was written; a guard state that would restore as something else was
 * changed. A valid state of the guard's previous version (2) is upgraded, not refused.
 */
function readGuard(value: unknown): GuardState {
  const guard = restoreGuardState(value);
  const upgraded = (value as { schemaVersion?: unknown }).schemaVersion === 2 && guard !== EMPTY_GUARD_STATE;
  if (!upgraded && JSON.stringify(guard) !== JSON.stringify(value)) {
    throw problem('tampered', 'guard', 'the loop guard state does not check out');
  }
  return guard;
}

/** Prototype keys anywhere, and nesting past the bound, are refused before any field is read. */
function checkKeys(value: unknown, path: string, depth: number): void {
  if (typeof value !== 'object' || value === null) return;
  if (depth > MAX_DEPTH) throw problem('tampered', path, `nested deeper than ${MAX_DEPTH} levels`);
  if (Object.getPrototypeOf(value) !== Object.prototype && !Array.isArray(value)) {
    throw problem('malformed', path, 'must be plain JSON data');
  }
  for (const key of Object.keys(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (FORBIDDEN_KEYS.has(key)) throw problem('tampered', at, 'a prototype key');
    checkKeys((value as Record<string, unknown>)[key], at, depth + 1);
  }
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw problem('malformed', path, 'must be an object');
  }
  return value as Record<string, unknown>;
}

function list(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw problem('malformed', path, 'must be an array');
  return value;
}

function text(value: unknown, path: string, max = Number.POSITIVE_INFINITY): string {
  if (typeof value !== 'string') throw problem('malformed', path, 'must be a string');
  if (value.length > max) throw problem('tampered', path, `longer than ${max} characters`);
  return value;
}

function count(value: unknown, path: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw problem('malformed', path, 'must be an integer >= 0');
  }
  return value as number;
}

function only(value: Record<string, unknown>, path: string, keys: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) throw problem('tampered', `${path}.${key}`, 'an unknown field');
  }
}

function problem(
  reason: RunStateError['reason'],
  path: string,
  message: string,
  cause?: unknown,
): RunStateError {
  return new RunStateError({
    reason,
    ...(path === '' ? {} : { path }),
    message,
    ...(cause === undefined ? {} : { cause }),
  });
}
