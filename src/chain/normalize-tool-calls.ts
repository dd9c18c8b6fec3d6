import type { ToolCall } from '../core/message.js';

/** Argument values that cannot be encoded become this text: not JSON, so the call fails as `INVALID_JSON`. */
const UNENCODABLE_ARGUMENTS = '<arguments that cannot be encoded as JSON>';
/** Replacement ids asked of `newId` before a counter makes one unique whatever it returns. */
const MAX_ID_ATTEMPTS = 8;

/**
 * Makes the tool calls of a model response safe to run and to keep in a history: an array of plain
 * `{ id, name, arguments }` objects of strings, each field read once. A missing, empty, duplicate or
 * non-string id is replaced by `newId()` (never by an id the model used elsewhere in the list); a name that
 * is not a string becomes text that names no tool; arguments that are not text are JSON-encoded, or, when
 * that fails (BigInt, cycles, throwing getters), become text that fails as `INVALID_JSON`. Anything that
 * cannot be read (a Proxy with throwing traps, a list that is not an array) is read as absent. Pure, and
 * never throws.
 */
export function normalizeToolCalls(raw: unknown, newId: () => string): ToolCall[] {
  const length = lengthOf(raw);
  const calls = new Array<ToolCall>(length);
  // Every id the model used: a replacement must not take one, even one that comes later in the list.
  const used = new Set<string>();
  let repair: number[] | undefined;
  for (let index = 0; index < length; index++) {
    const call = readCall(readItem(raw as readonly unknown[], index));
    if (call.id === '' || used.has(call.id)) {
      repair ??= [];
      repair.push(index);
    } else used.add(call.id);
    calls[index] = call;
  }
  if (repair !== undefined) {
    for (const index of repair) {
      const call = calls[index] as ToolCall;
      const id = freshId(newId, used);
      used.add(id);
      calls[index] = { id, name: call.name, arguments: call.arguments };
    }
  }
  return calls;
}

/** The length of a readable array, or 0. */
function lengthOf(raw: unknown): number {
  try {
    if (!Array.isArray(raw)) return 0;
    const length: unknown = raw.length;
    return typeof length === 'number' && Number.isSafeInteger(length) && length > 0 ? length : 0;
  } catch {
    return 0;
  }
}

function readItem(list: readonly unknown[], index: number): unknown {
  try {
    return list[index];
  } catch {
    return undefined;
  }
}

/** The call's fields as text; an id that is not a string is read as '' (to be replaced). */
function readCall(item: unknown): ToolCall {
  if ((typeof item !== 'object' && typeof item !== 'function') || item === null) {
    return { id: '', name: '', arguments: '' };
  }
  const id = readField(item, 'id');
  return {
    id: typeof id === 'string' ? id : '',
    name: nameText(readField(item, 'name')),
    arguments: argumentText(readField(item, 'arguments')),
  };
}

function readField(item: object, key: string): unknown {
  try {
    return (item as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function nameText(name: unknown): string {
  switch (typeof name) {
    case 'string':
      return name;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(name);
    default:
      return '';
  }
}

/**
 * A call's arguments as the chain reads them: text as it is, nothing as empty text, anything else encoded
 * as JSON, or (when that fails) text that fails as `INVALID_JSON`.
 */
export function argumentText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === 'string' ? text : UNENCODABLE_ARGUMENTS;
  } catch {
    return UNENCODABLE_ARGUMENTS;
  }
}

function freshId(newId: () => string, used: ReadonlySet<string>): string {
  let id = '';
  for (let attempt = 0; attempt < MAX_ID_ATTEMPTS; attempt++) {
    id = newId();
    if (id !== '' && !used.has(id)) return id;
  }
  for (let suffix = 1; ; suffix++) {
    const candidate = `${id}_${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}
