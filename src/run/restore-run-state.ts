import { RunStateError } from '../core/errors/run-state-error.js';
import { EMPTY_GUARD_STATE, type GuardState } from '../core/guard-state.js';
import type { Message, ToolCall } from '../core/message.js';
import { RUN_STATE_SCHEMA_VERSION, type RunState } from '../core/run-state.js';
import { restoreGuardState } from '../guard/restore-guard-state.js';
import { canonicalJson } from '../serialize/canonical-json.js';
import { readPending } from './read-pending.js';
import { count, list, only, problem, record, text } from './state-fields.js';

/** The versions read: the current one, and version 1 (a paused round whose calls had not run), upgraded. */
const READABLE_VERSIONS: readonly number[] = [1, RUN_STATE_SCHEMA_VERSION];

/** Saved JSON nested deeper than this is refused before it is read (a run state is shallow; payloads are small). */
const MAX_DEPTH = 64;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/**
 * Values in a saved state, at most: a 50-round run with its guard is a few thousand; a million leaves room
 * for long conversations and bounds the check of a hostile one to well under a second.
 */
const MAX_VALUES = 1_000_000;
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
  checkJsonData(value);
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
 * The guard's memory must restore as it was written; a guard state that would restore as something else was
 * changed. A valid state of the guard's earlier versions (2, 3) is upgraded, not refused.
 */
function readGuard(value: unknown): GuardState {
  const guard = restoreGuardState(value);
  const version = (value as { schemaVersion?: unknown }).schemaVersion;
  const upgraded = (version === 2 || version === 3) && guard !== EMPTY_GUARD_STATE;
  // Compared canonically: a state kept in PostgreSQL `jsonb`, or written by another language's JSON
  // library, has the same data in another key order.
  if (!upgraded && canonicalJson(guard) !== canonicalJson(value)) {
    throw problem('tampered', 'guard', 'the loop guard state does not check out');
  }
  return guard;
}

/**
 * Only what JSON text can carry is read, within bounds, before any field is: plain objects and dense arrays
 * (a sparse array or a length of 2^32 - 1 would have the reader walk holes for seconds), strings, finite
 * numbers, booleans and null; no prototype keys; nesting and the number of values bounded.
 */
function checkJsonData(value: unknown): void {
  const budget = { values: MAX_VALUES };
  checkValue(value, '', 0, budget);
}

function checkValue(value: unknown, path: string, depth: number, budget: { values: number }): void {
  if (--budget.values < 0) throw problem('tampered', path, `holds more than ${MAX_VALUES} values`);
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) throw problem('malformed', path, 'must be JSON data (a finite number)');
      return;
    case 'object':
      break;
    default:
      throw problem('malformed', path, `must be JSON data, got a ${typeof value}`);
  }
  if (value === null) return;
  if (depth > MAX_DEPTH) throw problem('tampered', path, `nested deeper than ${MAX_DEPTH} levels`);
  const at = (key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype)
      throw problem('malformed', path, 'must be plain JSON data');
    if (value.length > budget.values) throw problem('tampered', path, `holds more than ${MAX_VALUES} values`);
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) throw problem('malformed', at(index), 'a hole in an array: not JSON data');
      checkValue(value[index], at(index), depth + 1, budget);
    }
    return;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype)
    throw problem('malformed', path, 'must be plain JSON data');
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw problem('tampered', at(key), 'a prototype key');
    const field = (value as Record<string, unknown>)[key];
    // An undefined field is an absent one, as JSON.stringify writes it (a state passed as an object).
    if (field !== undefined) checkValue(field, at(key), depth + 1, budget);
  }
}
