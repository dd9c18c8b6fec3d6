import type { TokenUsage } from '../../../core/model.js';
import type { SseEvent } from '../sse-events.js';
import type { StreamStep, WireAnswer, WireCall, WireStreamReader } from '../wire.js';
import { isObject, type Json } from '../wire-json.js';
import { addUsage, redactCall, usageOf } from './chat-answer.js';

/** What every chunk of the app's stream carries: the first answer's id, its time and model. */
interface ChunkMeta {
  readonly id: unknown;
  readonly created: unknown;
  readonly model: unknown;
}

/** The held tool-call events of one answer grew past the bound: the stream cannot be judged. */
export class HeldTooMuchError extends Error {
  override readonly name = 'HeldTooMuchError';
}

interface CallParts {
  choice: number;
  index: number;
  id: string | undefined;
  name: string;
  arguments: string;
}

const DONE = 'data: [DONE]\n\n';
const NOTHING: StreamStep = Object.freeze({ write: '', decide: false });

/**
 * Reads a streamed chat completion (`chat.completion.chunk` events, then `[DONE]`). Text and everything
 * else pass at once; a chunk with `delta.tool_calls` is held (a chunk with text too is split: the text
 * goes, the call is held), and so is the `finish_reason` chunk after it, until every choice seen has
 * finished: then the answer is complete and judged. A continuation (the last answer of a stopped turn)
 * carries the first answer's id in every chunk, so the app reads one completion.
 */
export class ChatStreamReader implements WireStreamReader {
  /** Held events in order: a call's (dropped when its call goes whole, redacted), or any other. */
  private held: { raw: string; call: boolean }[] = [];
  /** A held event carries a `finish_reason`. */
  private heldFinish = false;
  private heldBytes = 0;
  private readonly calls = new Map<string, CallParts>();
  private readonly seen = new Set<number>();
  private readonly finished = new Set<number>();
  private readonly reasons: string[] = [];
  private decided = false;
  private done = false;
  /** A `finish_reason` went to the app. */
  private finishWritten = false;
  private usage: TokenUsage | undefined;
  /** The first choice's text so far. */
  private text = '';
  private rawUsage: unknown;
  private own: ChunkMeta | undefined;

  constructor(
    private readonly options: {
      readonly redactArguments: boolean;
      readonly maxHeldBytes: number;
      readonly after?: WireStreamReader;
    },
  ) {}

  /** The first answer's chunk fields: this one's, or the answer it continues. */
  meta(): ChunkMeta | undefined {
    const after = this.options.after;
    return after instanceof ChatStreamReader ? after.meta() : this.own;
  }

  push(event: SseEvent): StreamStep {
    // Nothing goes after `[DONE]`: the app stopped reading there.
    if (this.done) return NOTHING;
    const { data } = event;
    if (data === undefined) return this.pass(event.raw);
    if (data.trim() === '[DONE]') {
      this.done = true;
      if (this.decided) return this.pass(event.raw);
      this.hold(event.raw, false);
      return { write: '', decide: true };
    }
    const chunk = parse(data);
    if (chunk === undefined) return this.pass(event.raw);
    let raw = event.raw;
    if (this.options.after instanceof ChatStreamReader) {
      const meta = this.meta();
      if (meta !== undefined && chunk.id !== meta.id) raw = eventOf({ ...chunk, id: meta.id });
    } else if (this.own === undefined && chunk.id !== undefined) {
      this.own = { id: chunk.id, created: chunk.created, model: chunk.model };
    }
    const usage = usageOf(chunk.usage);
    if (usage !== undefined) {
      this.usage = usage;
      this.rawUsage = chunk.usage;
    }
    const choices = Array.isArray(chunk.choices) ? chunk.choices.filter(isObject) : [];
    if (this.decided) return this.afterDecision(chunk, choices, raw);
    let callChunk = false;
    let finishes = false;
    for (const choice of choices) {
      const index = typeof choice.index === 'number' ? choice.index : 0;
      this.seen.add(index);
      const delta = isObject(choice.delta) ? choice.delta : undefined;
      if (index === 0 && typeof delta?.content === 'string') this.text += delta.content;
      if (delta !== undefined && Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) {
        callChunk = true;
        for (const part of delta.tool_calls) this.addPart(index, part);
      }
      if (typeof choice.finish_reason === 'string') {
        finishes = true;
        this.finished.add(index);
        this.reasons.push(choice.finish_reason);
      }
    }
    let write = '';
    if (callChunk) {
      const { text, calls } = splitText(chunk, raw);
      write = text;
      this.hold(calls, true);
      if (finishes) this.heldFinish = true;
    } else if (this.held.length > 0 || (choices.length === 0 && this.calls.size > 0)) {
      this.hold(raw, false);
      if (finishes) this.heldFinish = true;
    } else {
      write = raw;
      if (finishes) this.finishWritten = true;
    }
    const complete = this.seen.size > 0 && this.finished.size >= this.seen.size;
    return { write, decide: complete || (choices.length === 0 && usage !== undefined) };
  }

  /**
   * A chunk after the answer was judged: it goes as it came, but a call in it (a provider that sends one
   * after its finish) was never judged and never goes.
   */
  private afterDecision(chunk: Json, choices: readonly Json[], raw: string): StreamStep {
    let calls = false;
    for (const choice of choices) {
      if (typeof choice.finish_reason === 'string') this.finishWritten = true;
      if (isObject(choice.delta) && choice.delta.tool_calls !== undefined) calls = true;
    }
    if (!calls) return this.pass(raw);
    const stripped = choices.map((choice) => {
      const { tool_calls: _calls, ...delta } = isObject(choice.delta) ? choice.delta : {};
      return { ...choice, delta };
    });
    return this.pass(eventOf({ ...chunk, choices: stripped }));
  }

  answer(): WireAnswer {
    const calls: WireCall[] = [...this.calls.values()].map((parts) => ({
      id: parts.id ?? `(no id: call ${parts.index + 1})`,
      name: parts.name,
      arguments: parts.arguments,
    }));
    return {
      calls,
      text: this.text,
      finishReasons: [...this.reasons],
      ...(this.usage === undefined ? {} : { usage: this.usage }),
    };
  }

  release(): string {
    this.decided = true;
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    if (this.heldFinish) this.finishWritten = true;
    if (!this.options.redactArguments || this.calls.size === 0)
      return held.map((entry) => entry.raw).join('');
    // Arguments redacted: each call goes whole, in one chunk of its own, its fragments dropped.
    const rest = held.filter((entry) => !entry.call).map((entry) => entry.raw);
    const calls = [...this.calls.values()].map((parts) =>
      this.chunk(parts.choice, {
        tool_calls: [
          redactCall({
            index: parts.index,
            id: parts.id,
            type: 'function',
            function: { name: parts.name, arguments: parts.arguments },
          }),
        ],
      }),
    );
    return [...calls, ...rest].join('');
  }

  cut(): string {
    this.held = [];
    this.decided = true;
    if (this.done) return '';
    const tail = this.finishWritten ? '' : this.chunk(0, {}, 'length');
    this.done = true;
    return `${tail}${DONE}`;
  }

  finish(text: string): string {
    this.held = [];
    this.decided = true;
    this.done = true;
    const parts = [
      text === '' ? '' : this.chunk(0, { role: 'assistant', content: text }),
      this.chunk(0, {}, 'stop'),
    ];
    const after = this.options.after;
    const usage = addUsage(after instanceof ChatStreamReader ? after.rawUsage : undefined, this.rawUsage);
    if (Object.keys(usage).length > 0) parts.push(eventOf({ ...this.base(), choices: [], usage }));
    parts.push(DONE);
    return parts.join('');
  }

  ended(): boolean {
    return this.done;
  }

  private pass(raw: string): StreamStep {
    return { write: raw, decide: false };
  }

  private hold(raw: string, call: boolean): void {
    this.held.push({ raw, call });
    this.heldBytes += raw.length;
    if (this.heldBytes > this.options.maxHeldBytes)
      throw new HeldTooMuchError(`the tool calls of one answer are over ${this.options.maxHeldBytes} bytes`);
  }

  private addPart(choice: number, part: unknown): void {
    if (!isObject(part)) return;
    const index = typeof part.index === 'number' ? part.index : 0;
    const key = `${choice}:${index}`;
    let parts = this.calls.get(key);
    if (parts === undefined) {
      parts = { choice, index, id: undefined, name: '', arguments: '' };
      this.calls.set(key, parts);
    }
    if (typeof part.id === 'string') parts.id = part.id;
    const fn = isObject(part.function) ? part.function : undefined;
    if (typeof fn?.name === 'string') parts.name += fn.name;
    if (typeof fn?.arguments === 'string') parts.arguments += fn.arguments;
  }

  private base(): Json {
    const meta = this.meta();
    return {
      id: meta?.id ?? 'chatcmpl-toolwarden',
      object: 'chat.completion.chunk',
      created: meta?.created ?? Math.floor(Date.now() / 1000),
      model: meta?.model ?? '',
    };
  }

  private chunk(choice: number, delta: Json, finish: string | null = null): string {
    return eventOf({
      ...this.base(),
      choices: [{ index: choice, delta, logprobs: null, finish_reason: finish }],
    });
  }
}

/** A chunk with calls, split: the event of its text (none when it has none) and the event of its calls. */
function splitText(chunk: Json, raw: string): { text: string; calls: string } {
  const choices = (chunk.choices as unknown[]).filter(isObject);
  const hasText = choices.some(
    (choice) =>
      isObject(choice.delta) && typeof choice.delta.content === 'string' && choice.delta.content !== '',
  );
  if (!hasText) return { text: '', calls: raw };
  const textChoices = choices.map((choice) => {
    const { tool_calls: _calls, ...delta } = isObject(choice.delta) ? choice.delta : {};
    return { ...choice, delta, finish_reason: null };
  });
  const callChoices = choices.map((choice) => {
    const { content: _content, ...delta } = isObject(choice.delta) ? choice.delta : {};
    return { ...choice, delta };
  });
  return {
    text: eventOf({ ...chunk, choices: textChoices }),
    calls: eventOf({ ...chunk, choices: callChoices }),
  };
}

function eventOf(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

function parse(data: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
