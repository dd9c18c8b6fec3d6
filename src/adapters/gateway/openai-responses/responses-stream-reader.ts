import { redactSecrets } from '../../../redact/redact.js';
import type { SseEvent } from '../sse-events.js';
import type { StreamStep, WireAnswer, WireCall, WireStreamReader } from '../wire.js';
import { isObject, type Json } from '../wire-json.js';
import { messageItem, redactItem, responseCall, responseUsage } from './responses-answer.js';

/** The held function-call events of one answer grew past the bound: the stream cannot be judged. */
export class HeldResponsesTooMuchError extends Error {
  override readonly name = 'HeldResponsesTooMuchError';
}

interface CallItem {
  item: Json;
  json: string;
  /** Whether a `.done` event gave the whole arguments (they then win over the joined deltas). */
  whole: boolean;
  /** Redacting: the call's whole arguments went in its first delta. */
  sent: boolean;
}

const NOTHING: StreamStep = Object.freeze({ write: '', decide: false });
/** The events that end a response. */
const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Reads a streamed response (`response.created`, `response.output_item.added`/`done`,
 * `response.function_call_arguments.delta`/`done`, `response.output_text.delta`, …, `response.completed`).
 * Text passes at once; from the first `function_call` item on, every event is held until the response
 * ends (`response.completed`, `incomplete` or `failed`), then the answer is judged. A continuation (the last
 * answer of a stopped turn) is read into the stream the app already reads: its `response.created` and
 * `in_progress` dropped, its `output_index` after the items the app has, its `sequence_number` following
 * on. A cut stream ends with `response.incomplete` and no call in it.
 */
export class ResponsesStreamReader implements WireStreamReader {
  private held: { raw: string; data: Json }[] = [];
  private heldBytes = 0;
  private holding = false;
  private readonly calls = new Map<number, CallItem>();
  private decided = false;
  private done = false;
  /** Output items the app has (their `output_item.added` went). */
  private appItems: number;
  private readonly offset: number;
  /** The last `sequence_number` the app got. */
  private sequence: number;
  private text = '';
  /** The response as the provider last described it (created, then completed). */
  private response: Json | undefined;
  private startedForApp: boolean;
  /** The output items the app has, by the app's index, as its events built them (for a cut stream's end). */
  private readonly appOutput: Json[] = [];

  constructor(
    private readonly options: {
      readonly redactArguments: boolean;
      readonly maxHeldBytes: number;
      readonly after?: WireStreamReader;
    },
  ) {
    const after = options.after instanceof ResponsesStreamReader ? options.after : undefined;
    this.offset = after?.appItems ?? 0;
    this.appItems = this.offset;
    this.sequence = after?.sequence ?? -1;
    this.startedForApp = after !== undefined;
  }

  push(event: SseEvent): StreamStep {
    if (this.done) return NOTHING;
    const data = event.data === undefined ? undefined : parse(event.data);
    if (data === undefined) return this.pass(event.raw);
    const type = typeof data.type === 'string' ? data.type : (event.event ?? '');
    const index = typeof data.output_index === 'number' ? data.output_index : undefined;
    if (type === 'response.created' || type === 'response.in_progress' || type === 'response.queued') {
      if (isObject(data.response)) this.response = data.response;
      if (this.options.after !== undefined) return NOTHING;
      this.startedForApp = true;
      return this.write(data, event.raw);
    }
    if (TERMINAL.has(type)) {
      if (isObject(data.response)) {
        this.response = data.response;
        // Calls the response lists but never streamed as items are calls all the same: judged, held.
        const output = Array.isArray(data.response.output) ? data.response.output : [];
        output.forEach((item, at) => {
          if (!isObject(item) || item.type !== 'function_call' || this.decided) return;
          const known = [...this.calls.values()].some((call) => call.item.call_id === item.call_id);
          if (known) return;
          const json = typeof item.arguments === 'string' ? item.arguments : '';
          this.calls.set(this.calls.has(at) ? 1_000_000 + at : at, { item, json, whole: true, sent: false });
          this.holding = true;
        });
      }
      this.done = true;
      if (this.decided) return this.write(data, event.raw);
      if (this.holding) return this.hold(data, event.raw, true);
      return { write: this.write(data, event.raw).write, decide: true };
    }
    if (type === 'error') {
      this.done = true;
      this.held = [];
      return this.write(data, event.raw);
    }
    const callItem = isObject(data.item) && data.item.type === 'function_call' ? data.item : undefined;
    if (callItem !== undefined && !this.calls.has(index ?? -1)) {
      // A call after the answer was judged was never judged: it never goes.
      if (this.decided) return NOTHING;
      // Its first event (`added`, or a `done` with no `added` before it) makes it a call of the answer.
      this.calls.set(index ?? -1, { item: callItem, json: '', whole: false, sent: false });
      this.holding = true;
    }
    const call = index === undefined ? undefined : this.calls.get(index);
    // Arguments of an item never added as a call belong to no call the app may see.
    if (call === undefined && type.startsWith('response.function_call_arguments.')) return NOTHING;
    if (call !== undefined) {
      if (type === 'response.function_call_arguments.delta' && typeof data.delta === 'string')
        call.json += data.delta;
      if (type === 'response.function_call_arguments.done' && typeof data.arguments === 'string') {
        call.json = data.arguments;
        call.whole = true;
      }
      if (type === 'response.output_item.done' && isObject(data.item)) {
        call.item = data.item;
        if (typeof data.item.arguments === 'string') {
          call.json = data.item.arguments;
          call.whole = true;
        }
      }
      if (this.decided) return NOTHING;
    }
    if (type === 'response.output_text.delta' && typeof data.delta === 'string') this.text += data.delta;
    if (this.holding) return this.hold(data, event.raw, false);
    if (type === 'response.output_item.added') this.appItems++;
    return this.write(data, event.raw);
  }

  answer(): WireAnswer {
    const calls: WireCall[] = [...this.calls.entries()].map(([index, call]) => ({
      ...responseCall(call.item, index),
      arguments: call.json,
    }));
    const response = this.response;
    const usage = responseUsage(response?.usage);
    return {
      ...(typeof response?.id === 'string' ? { id: response.id } : {}),
      calls,
      text: this.text,
      finishReasons: typeof response?.status === 'string' && this.done ? [response.status] : [],
      ...(usage === undefined ? {} : { usage }),
    };
  }

  release(): string {
    this.decided = true;
    this.holding = false;
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    const parts: string[] = [];
    for (const { raw, data } of held) {
      if (data.type === 'response.output_item.added') this.appItems++;
      if (!this.options.redactArguments) {
        parts.push(this.write(data, raw).write);
        continue;
      }
      const redacted = this.redacted(data);
      if (redacted !== undefined) parts.push(this.write(redacted, undefined).write);
    }
    return parts.join('');
  }

  cut(): string {
    this.held = [];
    this.holding = false;
    this.decided = true;
    if (this.done) return '';
    this.done = true;
    const base = this.base();
    return [
      this.createdIfNone(base),
      this.event({
        type: 'response.incomplete',
        response: {
          ...base,
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
          output: this.appOutput.filter((item) => isObject(item) && item.type !== 'function_call'),
        },
      }),
    ].join('');
  }

  finish(text: string): string {
    this.held = [];
    this.holding = false;
    this.decided = true;
    this.done = true;
    const base = this.base();
    const index = this.appItems;
    this.appItems++;
    const item = messageItem(text, `msg_toolwarden_${String(base.id ?? 'stop')}`);
    const part = item.content[0];
    const open = { ...item, status: 'in_progress', content: [] };
    const at = { item_id: item.id, output_index: index, content_index: 0 };
    return [
      this.createdIfNone(base),
      this.event({ type: 'response.output_item.added', output_index: index, item: open }),
      this.event({ type: 'response.content_part.added', ...at, part: { ...part, text: '' } }),
      this.event({ type: 'response.output_text.delta', ...at, delta: text, logprobs: [] }),
      this.event({ type: 'response.output_text.done', ...at, text, logprobs: [] }),
      this.event({ type: 'response.content_part.done', ...at, part }),
      this.event({ type: 'response.output_item.done', output_index: index, item }),
      this.event({
        type: 'response.completed',
        response: { ...base, status: 'completed', output: [...outputWithoutCalls(base), item] },
      }),
    ].join('');
  }

  ended(): boolean {
    return this.done;
  }

  /** The response to describe in events the gateway writes: this answer's, else the one it continues. */
  private base(): Json {
    const after = this.options.after instanceof ResponsesStreamReader ? this.options.after : undefined;
    return this.response ?? after?.response ?? { id: 'resp_toolwarden', object: 'response', output: [] };
  }

  private createdIfNone(base: Json): string {
    if (this.startedForApp) return '';
    this.startedForApp = true;
    return this.event({ type: 'response.created', response: { ...base, status: 'in_progress', output: [] } });
  }

  private pass(raw: string): StreamStep {
    return { write: raw, decide: false };
  }

  /** An event as the app gets it: a continuation's moved after what the app has, its sequence following on. */
  private write(data: Json, raw: string | undefined): StreamStep {
    this.track(data);
    const moved = this.offset !== 0 || this.options.after !== undefined;
    if (!moved && raw !== undefined) {
      if (typeof data.sequence_number === 'number')
        this.sequence = Math.max(this.sequence, data.sequence_number);
      return this.pass(raw);
    }
    const next: Json = { ...data };
    if (typeof data.output_index === 'number') next.output_index = data.output_index + this.offset;
    return this.pass(this.event(next));
  }

  /** Keeps what the app's output holds after `data`: items added and done, text deltas. */
  private track(data: Json): void {
    if (typeof data.output_index !== 'number') return;
    const at = data.output_index + this.offset;
    if (
      (data.type === 'response.output_item.added' || data.type === 'response.output_item.done') &&
      isObject(data.item)
    )
      this.appOutput[at] = structuredClone(data.item);
    const item = this.appOutput[at];
    if (data.type !== 'response.output_text.delta' || typeof data.delta !== 'string' || item === undefined)
      return;
    const content = Array.isArray(item.content) ? item.content : [];
    item.content = content;
    const index = typeof data.content_index === 'number' ? data.content_index : 0;
    const part = isObject(content[index])
      ? content[index]
      : { type: 'output_text', text: '', annotations: [] };
    content[index] = { ...part, text: `${typeof part.text === 'string' ? part.text : ''}${data.delta}` };
  }

  private event(data: Json): string {
    this.sequence++;
    const value: Json = { ...data, sequence_number: this.sequence };
    return `event: ${String(value.type)}\ndata: ${JSON.stringify(value)}\n\n`;
  }

  private hold(data: Json, raw: string, decide: boolean): StreamStep {
    this.held.push({ raw, data });
    this.heldBytes += raw.length;
    if (this.heldBytes > this.options.maxHeldBytes)
      throw new HeldResponsesTooMuchError(
        `the tool calls of one answer are over ${this.options.maxHeldBytes} bytes`,
      );
    return decide ? { write: '', decide: true } : NOTHING;
  }

  /**
   * A held event with the calls' arguments redacted: each call's arguments go whole in its first delta (its
   * other deltas dropped: undefined), and whole in its `.done` events and in the response's output.
   */
  private redacted(data: Json): Json | undefined {
    const index = typeof data.output_index === 'number' ? data.output_index : -1;
    const call = this.calls.get(index);
    switch (data.type) {
      case 'response.function_call_arguments.delta': {
        if (call === undefined) return data;
        if (call.sent) return undefined;
        call.sent = true;
        return { ...data, delta: redactSecrets(call.json) };
      }
      case 'response.function_call_arguments.done':
        return typeof data.arguments === 'string'
          ? { ...data, arguments: redactSecrets(data.arguments) }
          : data;
      case 'response.output_item.done':
        return { ...data, item: redactItem(data.item) };
      default:
        if (isObject(data.response) && Array.isArray(data.response.output))
          return { ...data, response: { ...data.response, output: data.response.output.map(redactItem) } };
        return data;
    }
  }
}

function outputWithoutCalls(response: Json): unknown[] {
  return Array.isArray(response.output)
    ? response.output.filter((item) => !(isObject(item) && item.type === 'function_call'))
    : [];
}

function parse(data: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
