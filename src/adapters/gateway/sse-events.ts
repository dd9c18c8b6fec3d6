/** One server-sent event: its text as it came (to pass on unchanged), its type and its data. */
export interface SseEvent {
  /** The event's lines and the blank line that ended it, exactly as received. */
  readonly raw: string;
  /** The `event:` field; undefined when there is none (a `message`). */
  readonly event: string | undefined;
  /** The `data:` lines joined by `\n`; undefined when the event has none (a comment, a retry). */
  readonly data: string | undefined;
}

/** Reads a stream of server-sent events as its chunks come, by the WHATWG parsing rules. */
export interface SseParser {
  /** The events a chunk completes (none when it ends mid-event). */
  push(chunk: Uint8Array | string): SseEvent[];
  /** What is left at the end of the stream: an event the stream cut off (no blank line after it), if any. */
  end(): SseEvent | undefined;
}

/** An event longer than this is not one: the parser fails rather than hold a stream that never ends an event. */
export class SseEventTooLargeError extends Error {
  override readonly name = 'SseEventTooLargeError';
}

/**
 * A parser that keeps at most `maxEventBytes` of an unfinished event (UTF-8 split across chunks is kept
 * whole). Lines end with CRLF, LF or CR; an event ends at a blank line.
 */
export function createSseParser(maxEventBytes: number): SseParser {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  /** Where the search for the next blank line resumes: a chunk is not scanned again. */
  let scanned = 0;
  const take = (): SseEvent[] => {
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const end = eventEnd(buffer, Math.max(start, scanned));
      if (end === -1) break;
      events.push(readEvent(buffer.slice(start, end)));
      start = end;
      scanned = end;
    }
    buffer = buffer.slice(start);
    // A CR at the end may be the first half of a CRLF: looked at again with the next chunk.
    scanned = Math.max(0, buffer.length - 2);
    if (buffer.length > maxEventBytes)
      throw new SseEventTooLargeError(`an event over ${maxEventBytes} bytes`);
    return events;
  };
  return {
    push(chunk) {
      buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      return take();
    },
    end() {
      buffer += decoder.decode();
      const rest = buffer;
      buffer = '';
      return rest.trim() === '' ? undefined : readEvent(rest);
    },
  };
}

/** The end (exclusive) of the first complete event at or after `from`: past its blank line; -1 when none. */
function eventEnd(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code !== 10 && code !== 13) continue;
    // A line break; a blank line follows when the next line is empty.
    const next = code === 13 && text.charCodeAt(index + 1) === 10 ? index + 2 : index + 1;
    if (next >= text.length) {
      // A CR that may be a CRLF's first half, or a line break at the end: wait for more.
      return -1;
    }
    const after = text.charCodeAt(next);
    if (after === 10) return next + 1;
    if (after === 13) {
      if (next + 1 >= text.length) return -1;
      return text.charCodeAt(next + 1) === 10 ? next + 2 : next + 1;
    }
  }
  return -1;
}

function readEvent(raw: string): SseEvent {
  let event: string | undefined;
  let data: string[] | undefined;
  for (const line of raw.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') {
      data ??= [];
      data.push(value);
    }
  }
  return { raw, event, data: data?.join('\n') };
}
