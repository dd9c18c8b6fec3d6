import { redactSecrets } from '../../../redact/redact.js';
import type { SseEvent } from '../sse-events.js';
import type { StreamStep, WireAnswer, WireCall, WireStreamReader } from '../wire.js';
import { isObject, type Json } from '../wire-json.js';
import { argumentsText } from './read-messages-request.js';

/** The held tool-use events of one answer grew past the bound: the stream cannot be judged. */
export class HeldMessagesTooMuchError extends Error {
  override readonly name = 'HeldMessagesTooMuchError';
}

interface ToolBlock {
  readonly id: string | undefined;
  readonly name: string;
  readonly input: unknown;
  /** The `partial_json` fragments joined. */
  json: string;
  deltas: number;
}

interface Held {
  readonly raw: string;
  /** The provider's index of the tool-use block whose delta this is (for redaction). */
  readonly toolDelta?: number;
  /** A `content_block_start` (counted as a block the app has once it goes). */
  readonly start: boolean;
  /** A `message_delta`. */
  readonly delta: boolean;
}

const NOTHING: StreamStep = Object.freeze({ write: '', decide: false });

/**
 * Reads a streamed Anthropic message (`message_start`, `content_block_start`/`delta`/`stop`,
 * `message_delta`, `message_stop`, `ping`, `error`). Text and thinking blocks pass at once; from the first
 * `tool_use` block on, every event is held until the answer says how it stopped (`message_delta`), then the
 * answer is judged. A continuation (the last answer of a stopped turn) is read into the message the app
 * already reads: its `message_start` dropped, its block indexes after the blocks the app has. A cut stream
 * ends with its open block closed, `stop_reason: "max_tokens"` and `message_stop`, and no `tool_use`.
 */
export class MessagesStreamReader implements WireStreamReader {
  private held: Held[] = [];
  private heldBytes = 0;
  /** From the first tool-use block until the decision: everything is held, so the app's blocks stay in order. */
  private holding = false;
  private readonly tools = new Map<number, ToolBlock>();
  /** Tool-use blocks that never go (sent after the answer was judged). */
  private readonly dropped = new Set<number>();
  /**
   * Blocks that went to the app as they came (text, thinking, a server tool's use, which the provider runs
   * itself), by their type: their deltas go too.
   */
  private readonly passed = new Map<number, unknown>();
  private decided = false;
  private done = false;
  private messageStarted: boolean;
  private deltaWritten = false;
  /** Content blocks the app has (their `content_block_start` went): the next block's index. */
  private appBlocks: number;
  /** The app's index of a block started and not yet stopped. */
  private openBlock: number | undefined;
  private readonly offset: number;
  private text = '';
  private stopReason: string | undefined;
  private inputTokens: number | undefined;
  private outputTokens: number | undefined;
  private meta: { id: unknown; model: unknown } | undefined;

  constructor(
    private readonly options: {
      readonly redactArguments: boolean;
      readonly maxHeldBytes: number;
      readonly after?: WireStreamReader;
    },
  ) {
    const after = options.after instanceof MessagesStreamReader ? options.after : undefined;
    this.offset = after?.appBlocks ?? 0;
    this.appBlocks = this.offset;
    this.messageStarted = after !== undefined;
  }

  push(event: SseEvent): StreamStep {
    if (this.done) return NOTHING;
    const data = event.data === undefined ? undefined : parse(event.data);
    if (data === undefined) return this.pass(event.raw);
    const type = typeof data.type === 'string' ? data.type : event.event;
    const index = typeof data.index === 'number' ? data.index : 0;
    switch (type) {
      case 'ping':
        return this.pass(event.raw);
      case 'message_start': {
        if (this.options.after !== undefined) return NOTHING;
        this.messageStarted = true;
        const message = isObject(data.message) ? data.message : {};
        this.meta = { id: message.id, model: message.model };
        const usage = isObject(message.usage) ? message.usage : {};
        if (isCount(usage.input_tokens)) this.inputTokens = usage.input_tokens;
        if (isCount(usage.output_tokens)) this.outputTokens = usage.output_tokens;
        return this.pass(event.raw);
      }
      case 'content_block_start': {
        const block = isObject(data.content_block) ? data.content_block : {};
        if (block.type === 'tool_use') {
          if (this.decided) {
            this.dropped.add(index);
            return NOTHING;
          }
          this.tools.set(index, {
            id: typeof block.id === 'string' ? block.id : undefined,
            name: typeof block.name === 'string' ? block.name : '',
            input: block.input,
            json: '',
            deltas: 0,
          });
          this.holding = true;
        }
        const raw = this.renumbered(data, event.raw, index);
        if (this.holding) return this.hold({ raw, start: true, delta: false });
        this.passed.set(index, block.type);
        this.appBlocks++;
        this.openBlock = this.offset + index;
        return this.pass(raw);
      }
      case 'content_block_delta': {
        if (this.dropped.has(index)) return NOTHING;
        const delta = isObject(data.delta) ? data.delta : {};
        const tool = this.tools.get(index);
        // Call input for a block that takes none (never started, or text): it belongs to no call the app may see.
        if (
          tool === undefined &&
          delta.type === 'input_json_delta' &&
          !String(this.passed.get(index)).endsWith('tool_use')
        )
          return NOTHING;
        if (tool !== undefined && typeof delta.partial_json === 'string') {
          tool.json += delta.partial_json;
          tool.deltas++;
        } else if (delta.type === 'text_delta' && typeof delta.text === 'string') this.text += delta.text;
        const raw = this.renumbered(data, event.raw, index);
        if (this.holding)
          return this.hold({
            raw,
            start: false,
            delta: false,
            ...(tool === undefined ? {} : { toolDelta: index }),
          });
        return this.pass(raw);
      }
      case 'content_block_stop': {
        if (this.dropped.has(index)) return NOTHING;
        const raw = this.renumbered(data, event.raw, index);
        if (this.holding) return this.hold({ raw, start: false, delta: false });
        this.openBlock = undefined;
        return this.pass(raw);
      }
      case 'message_delta': {
        const delta = isObject(data.delta) ? data.delta : {};
        if (typeof delta.stop_reason === 'string') this.stopReason = delta.stop_reason;
        const usage = isObject(data.usage) ? data.usage : {};
        if (isCount(usage.output_tokens)) this.outputTokens = usage.output_tokens;
        if (isCount(usage.input_tokens)) this.inputTokens = usage.input_tokens;
        if (this.decided) {
          this.deltaWritten = true;
          return this.pass(event.raw);
        }
        if (this.holding) {
          this.hold({ raw: event.raw, start: false, delta: true });
          return { write: '', decide: true };
        }
        this.deltaWritten = true;
        return { write: event.raw, decide: true };
      }
      case 'message_stop': {
        this.done = true;
        if (this.decided) return this.pass(event.raw);
        if (this.holding) {
          this.hold({ raw: event.raw, start: false, delta: false });
          return { write: '', decide: true };
        }
        return { write: event.raw, decide: true };
      }
      case 'error':
        // The provider's own end: the app's SDK raises it. Calls held are dropped, never judged.
        this.done = true;
        this.held = [];
        return this.pass(event.raw);
      default:
        return this.holding
          ? this.hold({ raw: event.raw, start: false, delta: false })
          : this.pass(event.raw);
    }
  }

  answer(): WireAnswer {
    const calls: WireCall[] = [...this.tools.entries()].map(([index, tool]) => ({
      id: tool.id ?? `(no id: call ${index + 1})`,
      name: tool.name,
      arguments: tool.deltas > 0 ? tool.json : argumentsText(tool.input),
    }));
    const usage =
      this.inputTokens === undefined || this.outputTokens === undefined
        ? {}
        : { usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens } };
    return {
      calls,
      text: this.text,
      finishReasons: this.stopReason === undefined ? [] : [this.stopReason],
      ...usage,
    };
  }

  release(): string {
    this.decided = true;
    this.holding = false;
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    const redacted = new Set<number>();
    const parts: string[] = [];
    for (const entry of held) {
      if (entry.start) this.appBlocks++;
      if (entry.delta) this.deltaWritten = true;
      if (!this.options.redactArguments || entry.toolDelta === undefined) {
        parts.push(entry.raw);
        continue;
      }
      // Arguments redacted: each call's input goes whole, in its first delta; its other fragments are dropped.
      if (redacted.has(entry.toolDelta)) continue;
      redacted.add(entry.toolDelta);
      const tool = this.tools.get(entry.toolDelta) as ToolBlock;
      parts.push(
        eventOf('content_block_delta', {
          type: 'content_block_delta',
          index: this.offset + entry.toolDelta,
          delta: { type: 'input_json_delta', partial_json: redactSecrets(tool.json) },
        }),
      );
    }
    return parts.join('');
  }

  cut(): string {
    this.held = [];
    this.holding = false;
    this.decided = true;
    if (this.done) return '';
    this.done = true;
    const parts = [this.startIfNone(), this.closeOpen()];
    if (!this.deltaWritten)
      parts.push(
        eventOf('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: 'max_tokens', stop_sequence: null },
          usage: { output_tokens: this.outputTokens ?? 0 },
        }),
      );
    parts.push(eventOf('message_stop', { type: 'message_stop' }));
    return parts.join('');
  }

  finish(text: string): string {
    this.held = [];
    this.holding = false;
    this.decided = true;
    this.done = true;
    const index = this.appBlocks;
    this.appBlocks++;
    const after = this.options.after instanceof MessagesStreamReader ? this.options.after : undefined;
    const output = (after?.outputTokens ?? 0) + (this.outputTokens ?? 0);
    return [
      this.startIfNone(),
      this.closeOpen(),
      eventOf('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      }),
      text === ''
        ? ''
        : eventOf('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'text_delta', text },
          }),
      eventOf('content_block_stop', { type: 'content_block_stop', index }),
      eventOf('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: output },
      }),
      eventOf('message_stop', { type: 'message_stop' }),
    ].join('');
  }

  ended(): boolean {
    return this.done;
  }

  private pass(raw: string): StreamStep {
    return { write: raw, decide: false };
  }

  private hold(entry: Held): StreamStep {
    this.held.push(entry);
    this.heldBytes += entry.raw.length;
    if (this.heldBytes > this.options.maxHeldBytes)
      throw new HeldMessagesTooMuchError(
        `the tool calls of one answer are over ${this.options.maxHeldBytes} bytes`,
      );
    return NOTHING;
  }

  /** The event with its block index moved after the blocks the app already has (a continuation's). */
  private renumbered(data: Json, raw: string, index: number): string {
    if (this.offset === 0) return raw;
    return eventOf(String(data.type), { ...data, index: this.offset + index });
  }

  /** A `message_start` when the app got none (the stream was cut before it): the SDKs need one first. */
  private startIfNone(): string {
    if (this.messageStarted) return '';
    this.messageStarted = true;
    return eventOf('message_start', {
      type: 'message_start',
      message: {
        id: this.meta?.id ?? 'msg_toolwarden',
        type: 'message',
        role: 'assistant',
        model: this.meta?.model ?? '',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: this.inputTokens ?? 0, output_tokens: 0 },
      },
    });
  }

  private closeOpen(): string {
    const open = this.openBlock;
    if (open === undefined) return '';
    this.openBlock = undefined;
    return eventOf('content_block_stop', { type: 'content_block_stop', index: open });
  }
}

function eventOf(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function parse(data: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
