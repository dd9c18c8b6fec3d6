import { createHash } from 'node:crypto';
import type {
  CallNote,
  HistoryCall,
  HistoryRound,
  IdentityHints,
  ReadRequestOptions,
  WireRequest,
} from '../wire.js';
import { contentText, isObject, type Json, redactContent } from '../wire-json.js';

/** Keys of `metadata` that name a conversation, in the order they are looked for. */
const CONVERSATION_KEYS = ['session_id', 'conversation_id', 'thread_id'] as const;
/** Characters of a user or conversation id taken from the request, at most (longer: not an id). */
const MAX_ID_CHARS = 1024;

/**
 * Reads a chat completions request (`POST /v1/chat/completions`): the turn's rounds (the assistant messages
 * with `tool_calls` after the last user message, and the `tool` messages answering them), what names the
 * conversation, and, with `redactResults`, the `tool` messages with their secrets removed. Lenient: a call
 * nobody answered, a result whose id matches no call, a message of a shape it does not know are left as
 * they are (the provider judges the request); undefined when the body has no `messages` list at all.
 */
export function readChatRequest(body: unknown, options: ReadRequestOptions): WireRequest | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const request = body as Json;
  const messages = request.messages;
  if (!Array.isArray(messages)) return undefined;
  const lastUser = findLastUser(messages);
  const rounds: { calls: HistoryCall[] }[] = [];
  const byId = new Map<string, { round: number; index: number }>();
  /** Messages rewritten (their secrets removed), by position: every tool result of the history, earlier turns' too. */
  const rewritten = new Map<number, Json>();
  if (options.redactResults) {
    messages.forEach((message, position) => {
      if (!isObject(message) || message.role !== 'tool') return;
      const redacted = redactContent(message.content, options.redactText);
      if (redacted !== undefined) rewritten.set(position, { ...message, content: redacted });
    });
  }
  for (let position = lastUser + 1; position < messages.length; position++) {
    const message = messages[position];
    if (!isObject(message)) continue;
    if (message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      const calls = message.tool_calls.flatMap((call, index) => callOf(call, rounds.length, index));
      if (calls.length === 0) continue;
      calls.forEach((call, index) => {
        if (!byId.has(call.id)) byId.set(call.id, { round: rounds.length, index });
      });
      rounds.push({ calls });
      continue;
    }
    if (message.role !== 'tool' || typeof message.tool_call_id !== 'string') continue;
    const at = byId.get(message.tool_call_id);
    if (at === undefined) continue;
    const round = rounds[at.round] as { calls: HistoryCall[] };
    const call = round.calls[at.index] as HistoryCall;
    // The first answer of a call counts; a second one with the same id is the app's mistake.
    if (call.result !== undefined) continue;
    round.calls[at.index] = {
      ...call,
      result: { content: contentText((rewritten.get(position) ?? message).content), isError: false },
    };
  }
  const notesTarget = (notes: readonly CallNote[]) => withNotes(messages, rewritten, notes);
  return {
    stream: request.stream === true,
    model: typeof request.model === 'string' ? request.model : undefined,
    identity: identityOf(request, messages, lastUser),
    turn: { anchor: anchorOf(messages, lastUser), rounds: rounds as readonly HistoryRound[] },
    body(notes) {
      if (rewritten.size === 0 && notes.length === 0) return undefined;
      return JSON.stringify({ ...request, messages: notesTarget(notes) });
    },
    toolsOffBody(notes, note) {
      const offered = Array.isArray(request.tools) && request.tools.length > 0;
      const { tool_choice: _choice, parallel_tool_calls: _parallel, ...rest } = request;
      return JSON.stringify({
        ...rest,
        messages: [...notesTarget(notes), { role: 'system', content: note }],
        // `tool_choice` is refused without `tools`; with them, `none` keeps the history's calls readable.
        ...(offered ? { tool_choice: 'none' } : {}),
      });
    },
  };
}

/** The position of the last `user` message; -1 when there is none (the whole history is the turn). */
function findLastUser(messages: readonly unknown[]): number {
  for (let position = messages.length - 1; position >= 0; position--) {
    const message = messages[position];
    if (isObject(message) && message.role === 'user') return position;
  }
  return -1;
}

/** A call of an assistant message; none when it is not a function call with a name. */
function callOf(value: unknown, round: number, index: number): HistoryCall[] {
  if (!isObject(value) || (value.type !== undefined && value.type !== 'function')) return [];
  const fn = value.function;
  if (!isObject(fn) || typeof fn.name !== 'string') return [];
  const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
  // A call without an id cannot be answered; it still counts toward the turn's limits.
  const id = typeof value.id === 'string' ? value.id : `(no id: round ${round + 1}, call ${index + 1})`;
  return [{ id, name: fn.name, arguments: args ?? '{}' }];
}

/** The messages with the rewritten ones in place and each note after its result's content. */
function withNotes(
  messages: readonly unknown[],
  rewritten: ReadonlyMap<number, Json>,
  notes: readonly CallNote[],
) {
  const noteOf = new Map(notes.map((note) => [note.callId, note.text]));
  return messages.map((message, position) => {
    const current = rewritten.get(position) ?? message;
    if (noteOf.size === 0 || !isObject(current) || current.role !== 'tool') return current;
    const note = typeof current.tool_call_id === 'string' ? noteOf.get(current.tool_call_id) : undefined;
    if (note === undefined) return current;
    noteOf.delete(current.tool_call_id as string);
    const { content } = current;
    if (Array.isArray(content)) return { ...current, content: [...content, { type: 'text', text: note }] };
    return { ...current, content: `${contentText(content)}\n\n${note}` };
  });
}

function identityOf(request: Json, messages: readonly unknown[], lastUser: number): IdentityHints {
  const metadata = isObject(request.metadata) ? request.metadata : undefined;
  const conversation = CONVERSATION_KEYS.map((key) => metadata?.[key]).find(isId);
  const opening: string[] = [];
  for (const message of messages) {
    if (!isObject(message)) continue;
    if (message.role === 'system' || message.role === 'developer') opening.push(contentText(message.content));
    else if (message.role === 'user') {
      opening.push(contentText(message.content));
      break;
    }
  }
  if (lastUser === -1 && opening.length === 0) opening.push('');
  return {
    ...(conversation === undefined ? {} : { conversation }),
    ...(isId(request.user) ? { user: request.user } : {}),
    opening: opening.join('\u0000'),
  };
}

/** The turn: the last user message, where it stands, and what came just before it. */
function anchorOf(messages: readonly unknown[], lastUser: number): string {
  const user = messages[lastUser];
  const before = messages[lastUser - 1];
  const text = (message: unknown) => (isObject(message) ? contentText(message.content).slice(0, 4096) : '');
  return createHash('sha256')
    .update(`${lastUser}\u0000${text(user)}\u0000${text(before)}`)
    .digest('hex')
    .slice(0, 32);
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_ID_CHARS;
}
