import { createHash } from 'node:crypto';
import type {
  CallNote,
  ChainMemory,
  HistoryCall,
  HistoryRound,
  IdentityHints,
  ReadRequestOptions,
  TurnHistory,
  WireCall,
  WireRequest,
} from '../wire.js';
import { contentText, isObject, type Json, redactContent } from '../wire-json.js';

/** Keys of `metadata` that name a conversation, in the order they are looked for. */
const CONVERSATION_KEYS = ['session_id', 'conversation_id', 'thread_id'] as const;
const MAX_ID_CHARS = 1024;
/** The output the gateway sends for a call it withheld: the call never ran. */
const OWED_OUTPUT = 'Not run: toolwarden stopped this turn before the call, and answered the user instead.';

/**
 * Reads an OpenAI Responses request (`POST /v1/responses`). Its `input` (a string, or a list of items) is
 * the whole history, or, with `previous_response_id`, only what is new since that answer. The turn starts
 * at the last user message; each run of `function_call` items after it is a round, answered by the
 * `function_call_output` items with the same `call_id`. With `redactResults`, every output has its secrets
 * removed. A chained request is read again with the gateway's memory of the answer it continues
 * (`chain.withMemory`). Undefined when the body has no `input` at all.
 */
export function readResponsesRequest(body: unknown, options: ReadRequestOptions): WireRequest | undefined {
  if (!isObject(body)) return undefined;
  const input = body.input;
  if (typeof input !== 'string' && !Array.isArray(input)) return undefined;
  const previous = isId(body.previous_response_id) ? body.previous_response_id : undefined;
  // A conversation the provider keeps (the Conversations API) is incremental as a chain is.
  const named = isObject(body.conversation) ? body.conversation.id : body.conversation;
  const conversation = previous === undefined && isId(named) ? named : undefined;
  return read(body, input, { previous, conversation }, options, undefined);
}

/** What a request continues: an earlier answer, or a conversation the provider keeps; neither: its whole history. */
interface Continued {
  readonly previous: string | undefined;
  readonly conversation: string | undefined;
}

/** The request read with `memory` (the answer it continues; undefined: none, or not chained). */
function read(
  request: Json,
  input: string | unknown[],
  continued: Continued,
  options: ReadRequestOptions,
  memory: ChainMemory | 'missing' | undefined,
): WireRequest {
  const { previous, conversation } = continued;
  const items: unknown[] = typeof input === 'string' ? [{ role: 'user', content: input }] : input;
  const lastUser = findLastUser(items);
  const rewritten = new Map<number, Json>();
  if (options.redactResults) {
    items.forEach((item, position) => {
      if (!isOutput(item)) return;
      const redacted = redactContent(item.output, options.redactText);
      if (redacted !== undefined) rewritten.set(position, { ...item, output: redacted });
    });
  }
  // Continuing a remembered answer within its turn: its rounds, and its pending calls as the next round.
  const continues = memory !== undefined && memory !== 'missing' && lastUser === -1 ? memory : undefined;
  const rounds: { calls: HistoryCall[] }[] = continues === undefined ? [] : continues.rounds.map(copyRound);
  // Rounds kept as calls only were answered in the request that sent them: no output of this one is theirs.
  const callsOnly = continues?.kept === 'calls';
  const byId = new Map<string, { round: number; index: number }>();
  rounds.forEach((round, at) => {
    round.calls.forEach((call, index) => {
      if (!callsOnly && call.result === undefined && !byId.has(call.id))
        byId.set(call.id, { round: at, index });
    });
  });
  if (continues !== undefined && continues.pending.length > 0) {
    const at = rounds.length;
    rounds.push({ calls: continues.pending.map((call) => ({ ...call })) });
    continues.pending.forEach((call, index) => {
      if (!byId.has(call.id)) byId.set(call.id, { round: at, index });
    });
  }
  let inRound = false;
  for (let position = lastUser + 1; position < items.length; position++) {
    const item = rewritten.get(position) ?? items[position];
    if (!isObject(item)) continue;
    if (item.type === 'function_call' && typeof item.name === 'string') {
      if (!inRound) rounds.push({ calls: [] });
      inRound = true;
      const round = rounds.at(-1) as { calls: HistoryCall[] };
      const call = callOf(item, rounds.length - 1, round.calls.length);
      if (!byId.has(call.id)) byId.set(call.id, { round: rounds.length - 1, index: round.calls.length });
      round.calls.push(call);
      continue;
    }
    if (item.type !== 'function_call_output') continue;
    inRound = false;
    if (typeof item.call_id !== 'string') continue;
    const at = byId.get(item.call_id);
    if (at === undefined) continue;
    const round = rounds[at.round] as { calls: HistoryCall[] };
    const call = round.calls[at.index] as HistoryCall;
    if (call.result !== undefined) continue;
    round.calls[at.index] = { ...call, result: { content: contentText(item.output), isError: false } };
  }
  const identity = identityOf(request, items, memory);
  const resumesGuard = continues?.kept === 'calls' && continues.rounds.length > 0;
  const turn: TurnHistory = {
    anchor: anchorOf(items, lastUser, continued, memory),
    rounds: rounds as readonly HistoryRound[],
    ...(resumesGuard ? { resumesGuard } : {}),
  };
  // A request that sent the turn's rounds itself leaves their calls only (such an app sends them every
  // time); once a turn's memory is calls only, so is what follows it: the guard goes on from the session's.
  const whole = previous === undefined && conversation === undefined;
  const kept = (whole && rounds.length > 0) || resumesGuard ? 'calls' : 'results';
  // Outputs the gateway owes the provider for calls it withheld from the app (its own stop text went instead).
  const owed = memory !== undefined && memory !== 'missing' ? memory.owed : [];
  const owedItems = owed.map((id) => ({ type: 'function_call_output', call_id: id, output: OWED_OUTPUT }));
  const withNotesApplied = (notes: readonly CallNote[]) => [
    ...owedItems,
    ...withNotes(items, rewritten, notes),
  ];
  const asInput = (list: unknown[]) => (typeof input === 'string' && list.length === 1 ? input : list);
  return {
    stream: request.stream === true,
    model: typeof request.model === 'string' ? request.model : undefined,
    identity,
    turn,
    body(notes) {
      if (rewritten.size === 0 && notes.length === 0 && owedItems.length === 0) return undefined;
      return JSON.stringify({ ...request, input: asInput(withNotesApplied(notes)) });
    },
    toolsOffBody(notes, note) {
      const offered = Array.isArray(request.tools) && request.tools.length > 0;
      const { tool_choice: _choice, parallel_tool_calls: _parallel, ...rest } = request;
      return JSON.stringify({
        ...rest,
        input: [...withNotesApplied(notes), { role: 'developer', content: note }],
        ...(offered ? { tool_choice: 'none' } : {}),
      });
    },
    chain: {
      previous,
      conversation,
      // A conversation keeps its items whatever `store` says.
      remember: request.store !== false || conversation !== undefined,
      withMemory: (found) => read(request, input, continued, options, found ?? 'missing'),
      memory: (pending: readonly WireCall[], owedNow: readonly string[]) => ({
        identity,
        anchor: turn.anchor,
        kept,
        rounds: kept === 'results' ? turn.rounds : turn.rounds.map(namesOnly),
        pending,
        owed: owedNow,
      }),
    },
  };
}

function copyRound(round: HistoryRound): { calls: HistoryCall[] } {
  return { calls: [...round.calls] };
}

/** A round as a memory of calls only keeps it: what the limits count. */
function namesOnly(round: HistoryRound): HistoryRound {
  return { calls: round.calls.map((call) => ({ id: call.id, name: call.name, arguments: '' })) };
}

/** The position of the last user message item; -1 when there is none. */
function findLastUser(items: readonly unknown[]): number {
  for (let position = items.length - 1; position >= 0; position--) {
    const item = items[position];
    if (isObject(item) && item.role === 'user' && (item.type === undefined || item.type === 'message'))
      return position;
  }
  return -1;
}

function callOf(item: Json, round: number, index: number): HistoryCall {
  const id =
    typeof item.call_id === 'string' ? item.call_id : `(no id: round ${round + 1}, call ${index + 1})`;
  const args =
    typeof item.arguments === 'string' ? item.arguments : (JSON.stringify(item.arguments ?? {}) ?? '{}');
  return { id, name: item.name as string, arguments: args };
}

function isOutput(item: unknown): item is Json {
  return isObject(item) && item.type === 'function_call_output';
}

/** The items with the rewritten ones in place and each note after its output. */
function withNotes(
  items: readonly unknown[],
  rewritten: ReadonlyMap<number, Json>,
  notes: readonly CallNote[],
) {
  const noteOf = new Map(notes.map((note) => [note.callId, note.text]));
  return items.map((item, position) => {
    const current = rewritten.get(position) ?? item;
    if (noteOf.size === 0 || !isOutput(current) || typeof current.call_id !== 'string') return current;
    const note = noteOf.get(current.call_id);
    if (note === undefined) return current;
    noteOf.delete(current.call_id);
    const { output } = current;
    if (Array.isArray(output)) return { ...current, output: [...output, { type: 'input_text', text: note }] };
    return { ...current, output: `${contentText(output)}\n\n${note}` };
  });
}

function identityOf(
  request: Json,
  items: readonly unknown[],
  memory: ChainMemory | 'missing' | undefined,
): IdentityHints {
  const metadata = isObject(request.metadata) ? request.metadata : undefined;
  const named = isObject(request.conversation) ? request.conversation.id : request.conversation;
  const conversation = [named, ...CONVERSATION_KEYS.map((key) => metadata?.[key])].find(isId);
  const user = [request.user, request.safety_identifier].find(isId);
  const own = {
    ...(conversation === undefined ? {} : { conversation }),
    ...(user === undefined ? {} : { user }),
  };
  // A chained request's opening is the chain's first request's, as the gateway remembers it.
  if (memory !== undefined && memory !== 'missing') return { ...memory.identity, ...own };
  const opening: string[] = [typeof request.instructions === 'string' ? request.instructions : ''];
  const first = items.find((item) => isObject(item) && item.role === 'user');
  opening.push(isObject(first) ? contentText(first.content) : '');
  return { ...own, opening: opening.join('\u0000') };
}

/**
 * The turn's anchor. Full history: the last user message, where it stands and what came before it.
 * Chained: a new user message and the answer it follows (in a conversation, the turn before it, as its id
 * stays the same); else the remembered turn's own anchor; with no memory, `no-memory:` and the answer or
 * conversation it follows (the audit shows the turn was judged from the request alone).
 */
function anchorOf(
  items: readonly unknown[],
  lastUser: number,
  { previous, conversation }: Continued,
  memory: ChainMemory | 'missing' | undefined,
): string {
  const text = (item: unknown) =>
    isObject(item) ? contentText(item.content ?? item.output).slice(0, 4096) : '';
  const remembered = memory !== undefined && memory !== 'missing' ? memory : undefined;
  const follows = previous ?? (conversation === undefined ? undefined : `conversation:${conversation}`);
  if (follows === undefined)
    return digest(`${lastUser}\u0000${text(items[lastUser])}\u0000${text(items[lastUser - 1])}`);
  if (lastUser !== -1) {
    const before = previous === undefined ? `\u0000${remembered?.anchor ?? ''}` : '';
    return digest(`${follows}${before}\u0000${text(items[lastUser])}`);
  }
  if (remembered !== undefined) return remembered.anchor;
  return `no-memory:${digest(follows).slice(0, 22)}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_ID_CHARS;
}
