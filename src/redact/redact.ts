import { decodeEscapes, hasEscapes } from './decode-escapes.js';
import { REDACTION_PATTERNS, type RedactionKind } from './redaction-patterns.js';
import { isSecretKey } from './secret-key-words.js';
import {
  COLLAPSIBLE_WHITESPACE,
  MAY_HAVE_ESCAPES,
  MAY_HAVE_SECRET_KEY,
  MAY_NEED_REDACTION,
  NEEDS_COLLAPSING,
  NEEDS_NORMALIZING,
  NORMALIZING_CHARACTER,
  textTraits,
} from './text-traits.js';
import { joinWrappedLines } from './wrapped-lines.js';

/**
 * Redaction: error text and arguments made safe to show a model or write to a developer log.
 *
 * Secrets and internals become markers such as `[redacted:secret]`. Every pattern runs in linear time
 * (see redaction-patterns.ts), so hostile input cannot stall a tool call. Text is always redacted
 * before it is cut, so a cut never exposes half a secret.
 */

const ELLIPSIS = '…';
const MARKER_OPEN = '[redacted:';
/** Longest marker, `[redacted:secret]` and the like: a cut closer than this to a `[` may split one. */
const MAX_MARKER_LENGTH = 24;

/** Line breaks of every kind (CRLF, CR, NEL, LS, PS, VT, FF) become `\n`. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: vertical tab and form feed are line breaks here.
const LINE_BREAKS = /\r\n?|[\u000B\u000C\u0085\u2028\u2029]/g;

/**
 * Invisible and control characters, tab and line feed excepted: C0, DEL, C1, soft hyphen, Arabic letter mark,
 * zero-width characters, bidi embeddings, overrides and isolates, word joiners, BOM, interlinear annotations,
 * Unicode tag characters (U+E0000–E007F, used to hide text from people), and lone surrogates.
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const WHITESPACE_RUN = /\s+/g;
const TAB_AND_NEWLINE = /[\t\n]/g;
const STACK_LINE = /^\s*at\s/;
/** The same marker repeated (`[redacted:stack] [redacted:stack]`) says nothing more than one. */
const REPEATED_MARKER = /(\[redacted:[a-z]+\])(?: \1)+/g;

/** `"key": value` in JSON text, broken JSON included; the value is a string (maybe unterminated) or a scalar. */
const JSON_PAIR = /"((?:[^"\\\n]|\\.){1,200})"(\s*:\s*)("(?:[^"\\\n]|\\.)*"?|[\w.+-]+)/g;
const COMPILED = REDACTION_PATTERNS.map(({ kind, pattern, mayMatch, confirm }) => ({
  pattern,
  mayMatch,
  replace: replacer(kind, confirm),
}));

function marker(kind: RedactionKind): string {
  return `${MARKER_OPEN}${kind}]`;
}

/**
 * Replaces a match with its marker, keeping the named groups `pre…` (before) and `post` (after) around
 * it. With `confirm`, only as much of the match as it confirms is replaced (none: the match stays).
 */
function replacer(
  kind: RedactionKind,
  confirm?: (match: string) => number,
): (match: string, ...rest: unknown[]) => string {
  const text = marker(kind);
  return (match, ...rest) => {
    const groups = rest[rest.length - 1];
    let pre = '';
    let post = '';
    if (typeof groups === 'object' && groups !== null) {
      for (const [name, value] of Object.entries(groups as Record<string, string | undefined>)) {
        if (value === undefined) continue;
        if (name.startsWith('pre')) pre += value;
        else if (name === 'post') post = value;
      }
    }
    if (confirm === undefined) return `${pre}${text}${post}`;
    const body = match.slice(pre.length, match.length - post.length);
    const confirmed = confirm(body);
    return confirmed === 0 ? match : `${pre}${text}${body.slice(confirmed)}${post}`;
  };
}

function normalize(text: string): string {
  return NORMALIZING_CHARACTER.test(text) ? normalizeAll(text) : text;
}

function normalizeAll(text: string): string {
  return text.replace(LINE_BREAKS, '\n').replace(INVISIBLE, '');
}

function collapseWhitespace(text: string, collapsible = COLLAPSIBLE_WHITESPACE.test(text)): string {
  return collapsible ? text.replace(WHITESPACE_RUN, ' ').trim() : text.trim();
}

/** Cuts to at most `maxChars` characters, the trailing `…` included; never splits a surrogate pair or a marker. */
function cut(text: string, maxChars: number): string {
  const limit = Number.isNaN(maxChars) ? 0 : Math.max(0, Math.floor(maxChars));
  if (text.length <= limit) return text;
  if (limit === 0) return '';
  let end = limit - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  const open = text.lastIndexOf(MARKER_OPEN, end - 1);
  if (open !== -1 && open > end - MAX_MARKER_LENGTH) {
    const close = text.indexOf(']', open);
    if (close === -1 || close >= end) end = open;
  }
  return `${text.slice(0, end).trimEnd()}${ELLIPSIS}`;
}

/**
 * Replaces secrets and internals in `text` with markers: private keys, stack frames, SQL statements and row
 * data, URLs, JWTs, API keys, bearer/basic credentials, `password=...`-style values, emails, ARNs, IP addresses,
 * file paths, host:port, internal hostnames and long random tokens. Ordinary words are left alone.
 * Invisible characters are removed first (so `pass\u200Bword=` is still seen) and line breaks become `\n`.
 * Fails closed: if a pattern cannot run (an engine limit on enormous input), the whole text is withheld.
 */
export function redact(text: string): string {
  return redactDecoded(joinWrappedLines(normalize(text)), false);
}

/**
 * `redact` for text already normalized (line breaks unified, invisible characters gone); `traits` are
 * its `textTraits`, when already known.
 */
function redactNormalized(normalized: string, traits = textTraits(normalized)): string {
  try {
    let out = normalized;
    if ((traits & MAY_NEED_REDACTION) === 0) return out;
    for (const { pattern, mayMatch, replace } of COMPILED) {
      if (mayMatch(out)) out = out.replace(pattern, replace);
    }
    return out;
  } catch {
    return marker('text');
  }
}

/**
 * What the model sees of an error: the text before the first stack frame, invisible characters removed,
 * redacted, on one line, cut to `maxChars` (with a trailing `…`).
 */
export function redactForModel(text: string, maxChars: number): string {
  const lines = joinWrappedLines(normalize(windowFor(text, maxChars))).split('\n');
  // The first line is the message even when it reads "at least one item is required"; a frame there is redacted.
  const firstFrame = lines.findIndex((line, index) => index > 0 && STACK_LINE.test(line));
  const message = (firstFrame === -1 ? lines : lines.slice(0, firstFrame)).join('\n');
  // Redact with lines intact (SQL runs to the end of its line), then again once lines are joined,
  // in case joining brought a secret's parts together ("Bearer\nabc...").
  return cut(sayMarkersOnce(redactDecoded(message, true)), maxChars);
}

/**
 * Tool-call arguments for a developer log: values of secret-looking JSON keys removed (broken JSON too),
 * then redacted like error text, on one line, cut to `maxChars` (with a trailing `…`).
 */
export function summarizeArguments(rawArguments: string, maxChars: number): string {
  let text = windowFor(rawArguments, maxChars);
  let traits = textTraits(text);
  if ((traits & NEEDS_NORMALIZING) !== 0) {
    text = normalizeAll(text);
    traits = textTraits(text);
  }
  if ((traits & MAY_HAVE_SECRET_KEY) !== 0) {
    const hidden = text.replace(JSON_PAIR, (pair, key: string, separator: string, value: string) => {
      if (!isSecretKey(key)) return pair;
      const secret = marker('secret');
      return `"${key}"${separator}${value.startsWith('"') ? `"${secret}"` : secret}`;
    });
    if (hidden !== text) {
      text = hidden;
      traits = textTraits(text);
    }
  }
  const redacted = redactDecoded(text, true, traits);
  // Markers come only from the secret-key step or from a rule that could match.
  const mayHaveMarkers = (traits & (MAY_NEED_REDACTION | MAY_HAVE_SECRET_KEY)) !== 0 || redacted !== text;
  return cut(mayHaveMarkers ? sayMarkersOnce(redacted) : redacted, maxChars);
}

/** How much more text than is shown gets redacted: room for markers that replace long secrets. */
const WINDOW_FACTOR = 8;

/**
 * Only the head of a long text can be shown, so only the head is redacted: up to `maxChars * 8`
 * characters, ending at whitespace or a comma (a boundary a secret rarely spans) when there is one.
 * This keeps a megabyte of hostile text from costing a megabyte of regex work.
 */
function windowFor(text: string, maxChars: number): string {
  const limit = Math.max(256, maxChars * WINDOW_FACTOR);
  if (text.length <= limit) return text;
  const head = text.slice(0, limit);
  const boundary = Math.max(head.lastIndexOf(' '), head.lastIndexOf('\n'), head.lastIndexOf(','));
  return boundary > limit / 2 ? head.slice(0, boundary) : head;
}

/**
 * Redacts normalized text (on one line, or with its lines kept); for text with escapes (JSON, HTML,
 * percent), redacts the text as it reads once they are undone, and shows that when it finds anything.
 */
function redactDecoded(normalized: string, oneLine: boolean, traits?: number): string {
  if ((traits === undefined || (traits & MAY_HAVE_ESCAPES) !== 0) && hasEscapes(normalized)) {
    const decoded = normalizeAll(decodeEscapes(normalized));
    if (decoded !== normalized) {
      const decodedRedacted = redactLines(decoded, oneLine);
      if (decodedRedacted !== (oneLine ? collapseWhitespace(decoded) : decoded)) return decodedRedacted;
    }
  }
  return redactLines(normalized, oneLine, traits);
}

function redactLines(normalized: string, oneLine: boolean, traits?: number): string {
  return oneLine ? redactJoined(normalized, traits) : redactNormalized(normalized, traits);
}

/** A marker repeated (`[redacted:stack] [redacted:stack]`) is said once. */
function sayMarkersOnce(text: string): string {
  return text.includes(MARKER_OPEN) ? text.replace(REPEATED_MARKER, '$1') : text;
}

/** Redacts, joins the lines, and redacts again only when joining changed the text. */
function redactJoined(normalized: string, traits?: number): string {
  const once = redactNormalized(normalized, traits);
  const collapsible =
    once === normalized && traits !== undefined ? (traits & NEEDS_COLLAPSING) !== 0 : undefined;
  const joined = collapseWhitespace(once, collapsible);
  return joined === once ? once : redactNormalized(joined);
}

/**
 * A model-supplied name, safe to echo back: control, bidi and zero-width characters removed, cut to
 * `maxChars` (with a trailing `…`); nothing left becomes `(empty)`.
 */
export function sanitizeName(name: string, maxChars = 64): string {
  const shown = cut(normalize(name).replace(TAB_AND_NEWLINE, ''), maxChars);
  return shown === '' ? '(empty)' : shown;
}
