import {
  DEFAULT_MAX_ARGUMENT_PATH_CHARS,
  DEFAULT_MAX_MODEL_TEXT_CHARS,
  TOOL_NAME_PATTERN,
} from '../core/defaults.js';
import { redactForModel, sanitizeName } from '../redact/redact.js';

/**
 * The one gate: every text the model reads from the runtime is built from parts and leaves through
 * `modelText`, which redacts what did not come from toolwarden's own code and bounds the whole.
 *
 * - A `string` part is toolwarden's own words: a literal of this code, a number, a registered tool name.
 * - A `foreign` part is text from anywhere else (an error's message, a schema library's issue, a name the
 *   model sent): the strings in `withhold` are removed first, then it is redacted (the strings in `keep`
 *   left as they are) and cut to `maxChars`.
 * - A `path` part is a JSON Pointer into the arguments: each key is redacted on its own, so the path keeps
 *   its shape (`/items/0/id` is not a file path to remove).
 */
export type ModelTextPart = string | ForeignText | ArgumentPath;

export interface ForeignText {
  readonly type: 'foreign';
  readonly text: string;
  /** The most characters of it the model sees, after redaction. */
  readonly maxChars: number;
  /** Exact strings removed before redaction (the values the model sent), so that no pattern has to find them. */
  readonly withhold: readonly string[];
  /** Exact strings shown as they are where they stand alone (values the model sent that are no secret: `sentArgumentValues`). */
  readonly keep: readonly string[];
}

export interface ArgumentPath {
  readonly type: 'path';
  /** A JSON Pointer (`/items/0/id`); `` is the arguments themselves, shown as `/`. */
  readonly pointer: string;
}

/** What a withheld value becomes. */
export const WITHHELD_VALUE = '[redacted:value]';
const ELLIPSIS = '…';
/** How much of a foreign text is searched for withheld values: far more than redaction ever looks at. */
const WITHHOLD_WINDOW_FACTOR = 16;

/** A foreign text; anything but a string (a hostile schema library's issue) is no text at all. */
export function foreign(
  text: string,
  maxChars: number,
  withhold: readonly string[] = [],
  keep: readonly string[] = [],
): ForeignText {
  return { type: 'foreign', text: typeof text === 'string' ? text : '', maxChars, withhold, keep };
}

export function argumentPath(pointer: string): ArgumentPath {
  return { type: 'path', pointer };
}

/**
 * A tool name as the model sees it: a legal name (letters, digits, `_`, `-`, at most 64: a registered tool
 * or one the model made up) as it is; anything else is foreign text.
 */
export function toolNamePart(name: string): ModelTextPart {
  return TOOL_NAME_PATTERN.test(name) ? name : foreign(sanitizeName(name), 64);
}

/** The text the model reads: every foreign part redacted and cut, the whole cut to `maxChars` (with `…`). */
export function modelText(
  parts: readonly ModelTextPart[],
  maxChars: number = DEFAULT_MAX_MODEL_TEXT_CHARS,
): string {
  let text = '';
  for (const part of parts) text += shown(part);
  return clip(text, maxChars);
}

/** The same parts for developers: nothing redacted or cut (what a result's `error` keeps). */
export function plainText(parts: readonly ModelTextPart[]): string {
  let text = '';
  for (const part of parts) {
    text += typeof part === 'string' ? part : part.type === 'foreign' ? part.text : pointerText(part.pointer);
  }
  return text;
}

function shown(part: ModelTextPart): string {
  if (typeof part === 'string') return part;
  switch (part.type) {
    case 'foreign':
      return redactForModel(withheld(part), part.maxChars, part.keep);
    case 'path':
      return pathText(part.pointer);
    default: {
      const unreachable: never = part;
      throw new TypeError(`unknown model text part ${String(unreachable)}`);
    }
  }
}

/** The text with every withheld string replaced, longest first (only the head that can be shown is searched). */
function withheld({ text, maxChars, withhold }: ForeignText): string {
  if (withhold.length === 0) return text;
  const longest = withhold.reduce((max, value) => Math.max(max, value.length), 0);
  let out = text.slice(0, Math.max(4096, maxChars * WITHHOLD_WINDOW_FACTOR) + longest);
  for (const value of [...withhold].sort((a, b) => b.length - a.length)) {
    if (value !== '' && out.includes(value)) out = out.replaceAll(value, WITHHELD_VALUE);
  }
  return out;
}

/** A pointer whose keys are each redacted (a key the model sent can be anything), cut to the path limit. */
function pathText(pointer: string): string {
  if (pointer === '') return '/';
  const segments = pointer.split('/');
  const shownSegments = segments.map((segment, index) => {
    if (index === 0 || segment === '') return segment;
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    const redacted = redactForModel(key, 64);
    return redacted === key ? segment : redacted.replaceAll('~', '~0').replaceAll('/', '~1');
  });
  return clip(shownSegments.join('/'), DEFAULT_MAX_ARGUMENT_PATH_CHARS);
}

function pointerText(pointer: string): string {
  return pointer === '' ? '/' : pointer;
}

/** Cuts to at most `maxChars` characters, the `…` included, never between the halves of a surrogate pair. */
function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 0) return '';
  let end = maxChars - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}
