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

/** Characters of a user id taken from the request, at most (longer: not an id). */
const MAX_ID_CHARS = 1024;

/**
 * Reads an Anthropic Messages request (`POST /v1/messages`): the turn's rounds (the assistant messages with
 * `tool_use` blocks after the last user message that is not only tool results, and the `tool_result` blocks
 * of the user messages answering them, `is_error` kept), what names the conversation (`metadata.user_id`,
 * else the system prompt and the first user message), and, with `redactResults`, every `tool_result` with
 * its secrets removed. Lenient like the chat wire: what it does not know stays as it came; undefined when
 * the body has no `messages` list at all.
 */
export function readMessagesRequest(body: unknown, options: ReadRequestOptions): WireRequest | undefined {
  if (!isObject(body)) return undefined;
  const request = body;
  const messages = request.messages;
  if (!Array.isArray(messages)) return undefined;
  const lastUser = findTurnStart(messages);
  const rounds: { calls: HistoryCall[] }[] = [];
  const byId = new Map<string, { round: number; index: number }>();
  /** Messages rewritten (secrets removed from their tool results), by position: earlier turns' too. */
  const rewritten = new Map<number, Json>();
  if (options.redactResults) {
    messages.forEach((message, position) => {
      if (!isObject(message) || message.role !== 'user' || !Array.isArray(message.content)) return;
      let changed = false;
      const content = message.content.map((block) => {
        if (!isResult(block)) return block;
        const redacted = redactContent(block.content, options.redactText);
        if (redacted === undefined) return block;
        changed = true;
        return { ...block, content: redacted };
      });
      if (changed) rewritten.set(position, { ...message, content });
    });
  }
  for (let position = lastUser + 1; position < messages.length; position++) {
    const message = rewritten.get(position) ?? messages[position];
    if (!isObject(message) || !Array.isArray(message.content)) continue;
    if (message.role === 'assistant') {
      const uses = message.content.filter(
        (block): block is Json =>
          isObject(block) && block.type === 'tool_use' && typeof block.name === 'string',
      );
      if (uses.length === 0) continue;
      const calls = uses.map((block, index) => callOf(block, rounds.length, index));
      calls.forEach((call, index) => {
        if (!byId.has(call.id)) byId.set(call.id, { round: rounds.length, index });
      });
      rounds.push({ calls });
      continue;
    }
    if (message.role !== 'user') continue;
    for (const block of message.content) {
      if (!isResult(block) || typeof block.tool_use_id !== 'string') continue;
      const at = byId.get(block.tool_use_id);
      if (at === undefined) continue;
      const round = rounds[at.round] as { calls: HistoryCall[] };
      const call = round.calls[at.index] as HistoryCall;
      // The first answer of a call counts; a second one with the same id is the app's mistake.
      if (call.result !== undefined) continue;
      round.calls[at.index] = {
        ...call,
        result: { content: contentTextOf(block.content), isError: block.is_error === true },
      };
    }
  }
  const withNotesApplied = (notes: readonly CallNote[]) => withNotes(messages, rewritten, notes);
  return {
    stream: request.stream === true,
    model: typeof request.model === 'string' ? request.model : undefined,
    identity: identityOf(request, messages),
    turn: { anchor: anchorOf(messages, lastUser), rounds: rounds as readonly HistoryRound[] },
    body(notes) {
      if (rewritten.size === 0 && notes.length === 0) return undefined;
      return JSON.stringify({ ...request, messages: withNotesApplied(notes) });
    },
    toolsOffBody(notes, note) {
      const offered = Array.isArray(request.tools) && request.tools.length > 0;
      const { tool_choice: _choice, ...rest } = request;
      return JSON.stringify({
        ...rest,
        messages: withNote(withNotesApplied(notes), note),
        // The history holds `tool_use` blocks, which need `tools`: they stay, and `none` forbids new calls.
        ...(offered ? { tool_choice: { type: 'none' } } : {}),
      });
    },
  };
}

/**
 * The position of the message the turn starts at: the last user message that is not only tool results
 * (a user message carrying `tool_result` blocks answers the round before it); -1 when there is none.
 */
function findTurnStart(messages: readonly unknown[]): number {
  for (let position = messages.length - 1; position >= 0; position--) {
    const message = messages[position];
    if (!isObject(message) || message.role !== 'user') continue;
    if (!Array.isArray(message.content) || !message.content.some(isResult)) return position;
  }
  return -1;
}

function callOf(block: Json, round: number, index: number): HistoryCall {
  const id = typeof block.id === 'string' ? block.id : `(no id: round ${round + 1}, call ${index + 1})`;
  return { id, name: block.name as string, arguments: argumentsText(block.input) };
}

/** A `tool_use` block's `input` (a parsed object) as the JSON text the guard fingerprints. */
export function argumentsText(input: unknown): string {
  return JSON.stringify(input ?? {}) ?? '{}';
}

function isResult(block: unknown): block is Json {
  return isObject(block) && block.type === 'tool_result';
}

/** The messages with the rewritten ones in place and each note after its result's content. */
function withNotes(
  messages: readonly unknown[],
  rewritten: ReadonlyMap<number, Json>,
  notes: readonly CallNote[],
): unknown[] {
  const noteOf = new Map(notes.map((note) => [note.callId, note.text]));
  return messages.map((message, position) => {
    const current = rewritten.get(position) ?? message;
    if (noteOf.size === 0 || !isObject(current) || current.role !== 'user' || !Array.isArray(current.content))
      return current;
    let changed = false;
    const content = current.content.map((block) => {
      if (!isResult(block) || typeof block.tool_use_id !== 'string') return block;
      const note = noteOf.get(block.tool_use_id);
      if (note === undefined) return block;
      noteOf.delete(block.tool_use_id);
      changed = true;
      const inner = block.content;
      if (Array.isArray(inner)) return { ...block, content: [...inner, { type: 'text', text: note }] };
      return { ...block, content: inner === undefined ? note : `${contentTextOf(inner)}\n\n${note}` };
    });
    return changed ? { ...current, content } : current;
  });
}

/**
 * The conversation with the stop's note for the model: a text block after the last user message's tool
 * results (Anthropic has no system message in the list, and the system prompt stays as it was, so the
 * provider's prompt cache keeps the whole prefix), or a user message of its own.
 */
function withNote(messages: readonly unknown[], note: string): unknown[] {
  const last = messages.at(-1);
  const text = { type: 'text', text: note };
  if (isObject(last) && last.role === 'user') {
    const content =
      typeof last.content === 'string'
        ? [{ type: 'text', text: last.content }, text]
        : Array.isArray(last.content)
          ? [...last.content, text]
          : [text];
    return [...messages.slice(0, -1), { ...last, content }];
  }
  return [...messages, { role: 'user', content: [text] }];
}

function identityOf(request: Json, messages: readonly unknown[]): IdentityHints {
  const metadata = isObject(request.metadata) ? request.metadata : undefined;
  const user = metadata?.user_id;
  const opening: string[] = [systemText(request.system)];
  const first = messages.find((message) => isObject(message) && message.role === 'user');
  opening.push(isObject(first) ? messageText(first.content) : '');
  return {
    ...(isId(user) ? { user } : {}),
    opening: opening.join('\u0000'),
  };
}

/** The system prompt as text: a string, or its text blocks joined. */
function systemText(system: unknown): string {
  if (system === undefined) return '';
  return contentTextOf(system);
}

/** A message's content as text (its text blocks; other blocks as their JSON). */
function messageText(content: unknown): string {
  return contentTextOf(content);
}

/** The turn: the message it starts at, where it stands, and what came just before it. */
function anchorOf(messages: readonly unknown[], start: number): string {
  const text = (message: unknown) => (isObject(message) ? messageText(message.content).slice(0, 4096) : '');
  return createHash('sha256')
    .update(`${start}\u0000${text(messages[start])}\u0000${text(messages[start - 1])}`)
    .digest('hex')
    .slice(0, 32);
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_ID_CHARS;
}

/** A tool result's content as text; a block without content is empty. */
function contentTextOf(content: unknown): string {
  return content === undefined ? '' : contentText(content);
}
