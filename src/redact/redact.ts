import { DEFAULT_MAX_ARGUMENT_SUMMARY_VALUE_CHARS } from '../core/defaults.js';
import { decodeEscapes, hasEscapes } from './decode-escapes.js';
import { literalValue, mapJsonStrings } from './json-strings.js';
import { holdValues } from './kept-values.js';
import { REDACTION_PATTERNS, type RedactionKind, type RedactionPattern } from './redaction-patterns.js';
import { isSecretKey } from './secret-key-words.js';
import { TOKEN_PATTERNS, URL_CREDENTIALS_PATTERN } from './secret-patterns.js';
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
type CompiledRule = ReturnType<typeof compile>;
const compile = ({ kind, pattern, mayMatch, confirm }: RedactionPattern) => ({
  kind,
  pattern,
  mayMatch,
  replace: replacer(kind, confirm),
});
const COMPILED: readonly CompiledRule[] = REDACTION_PATTERNS.map(compile);
/**
 * The credential rules (keys, passwords, JWTs, private keys, credentials in URLs) but the random-looking
 * token rule, which `redactValue` runs apart: what makes a value a secret.
 */
const SECRET_KINDS: ReadonlySet<RedactionKind> = new Set(['key', 'jwt', 'secret']);
const TOKEN_RULE_PATTERNS: ReadonlySet<RegExp> = new Set(TOKEN_PATTERNS.map((rule) => rule.pattern));
const TOKEN_RULES: readonly CompiledRule[] = COMPILED.filter((rule) => TOKEN_RULE_PATTERNS.has(rule.pattern));
const SECRET_RULES: readonly CompiledRule[] = [
  ...COMPILED.filter((rule) => SECRET_KINDS.has(rule.kind) && !TOKEN_RULE_PATTERNS.has(rule.pattern)),
  compile(URL_CREDENTIALS_PATTERN),
];
/**
 * What an argument summary removes from a value: secrets, and personal data (a log needs neither): the
 * personal rules, a name beside a phone number included.
 */
const PERSONAL_KINDS: ReadonlySet<RedactionKind> = new Set(['email', 'phone', 'name', 'card', 'iban', 'id']);
const SUMMARY_RULES: readonly CompiledRule[] = [
  ...SECRET_RULES,
  ...COMPILED.filter((rule) => PERSONAL_KINDS.has(rule.kind)),
];
/** A value that is a path: its segments are judged one by one for random-looking tokens. */
const PATH_START = /^(?:[~.]{0,2}[\\/]|[A-Za-z]:[\\/])/;
const PATH_SEPARATOR = /([\\/])/;

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
function redactNormalized(
  normalized: string,
  traits = textTraits(normalized),
  rules: readonly CompiledRule[] = COMPILED,
): string {
  try {
    let out = normalized;
    if ((traits & MAY_NEED_REDACTION) === 0) return out;
    for (const { pattern, mayMatch, replace } of rules) {
      if (mayMatch(out)) out = out.replace(pattern, replace);
    }
    return out;
  } catch {
    return marker('text');
  }
}

/**
 * What the model sees of an error: the text before the first stack frame, invisible characters removed,
 * redacted, on one line, cut to `maxChars` (with a trailing `…`). `keep`: values the model itself sent
 * (`sentArgumentValues`), shown as they are where the text echoes them standing alone.
 */
export function redactForModel(text: string, maxChars: number, keep: readonly string[] = []): string {
  const held = holdValues(windowFor(text, maxChars), keep);
  const lines = joinWrappedLines(normalize(held.text)).split('\n');
  // The first line is the message even when it reads "at least one item is required"; a frame there is redacted.
  const firstFrame = lines.findIndex((line, index) => index > 0 && STACK_LINE.test(line));
  const message = (firstFrame === -1 ? lines : lines.slice(0, firstFrame)).join('\n');
  // Redact with lines intact (SQL runs to the end of its line), then again once lines are joined,
  // in case joining brought a secret's parts together ("Bearer\nabc...").
  const redacted = sayMarkersOnce(redactDecoded(message, true));
  return cut(held.restore(redacted, oneLine), maxChars);
}

/** A kept value as one line of visible text (the model's message is one line). */
function oneLine(value: string): string {
  return collapseWhitespace(normalizeAll(value), true);
}

/**
 * Whether a text holds a secret by the credential rules: a key or token (by prefix, shape or randomness),
 * a JWT, a private key, a `password=`-style value, a connection string's password, credentials in a URL
 * (an Oracle JDBC URL's `user/password@` too), escaped or not. Such a value the model sent is redacted all the same.
 */
export function holdsSecret(text: string): boolean {
  const normalized = normalize(text);
  return redactValue(normalized, SECRET_RULES) !== collapseWhitespace(normalized);
}

/**
 * A value (normalized) with what `rules` find replaced, on one line, then random-looking tokens: in a
 * path, segment by segment (a temporary folder's name in `/tmp/tw-Ixwz8H/a.txt` is not a key; the path
 * rule that runs before them in `redact` is not one of these rules).
 */
function redactValue(normalized: string, rules: readonly CompiledRule[]): string {
  const found = redactDecoded(normalized, true, undefined, rules);
  if (!PATH_START.test(found)) return redactNormalized(found, undefined, TOKEN_RULES);
  const segments = found.split(PATH_SEPARATOR);
  return segments.map((segment) => redactNormalized(segment, undefined, TOKEN_RULES)).join('');
}

/**
 * The secrets of a text a model is about to read, removed and nothing else (the gateway's tool results and,
 * opt-in, a model's arguments): what `holdsSecret` finds (keys and tokens by prefix or shape, JWTs, private
 * keys, `password=`-style values, credentials in a URL or a connection string) and the values of
 * secret-looking JSON keys become `[redacted:secret]`-style markers. Paths, URLs, ids, numbers, words and the
 * layout stay as they are, nothing is cut, and JSON stays JSON (string values are redacted one by one). The
 * same text always gives the same result (a provider's prompt cache keeps working); text with nothing to
 * remove comes back as it was given.
 */
export function redactSecrets(text: string): string {
  return removeSecrets(text, true);
}

/**
 * `redactSecrets` by the values alone: what the credential rules find in each string, and nothing for a
 * key's name (a `key` or `pageToken` parameter is a schema's word, not a leak). The MCP proxy's secret
 * scan of arguments and results, where a false alarm would block ordinary calls.
 */
export function redactSecretValues(text: string): string {
  return removeSecrets(text, false);
}

function removeSecrets(text: string, byKey: boolean): string {
  const traits = textTraits(text);
  const keyTrait = byKey ? MAY_HAVE_SECRET_KEY : 0;
  if ((traits & (MAY_NEED_REDACTION | keyTrait | NEEDS_NORMALIZING)) === 0) return text;
  // Invisible characters could hide a secret from the rules (`sk-\u200Bproj…`): judged without them.
  const normalized = (traits & NEEDS_NORMALIZING) === 0 ? text : normalizeAll(text);
  let out = normalized;
  if ((traits & keyTrait) !== 0) out = out.replace(JSON_PAIR, hideSecretValue);
  if (JSON_START.test(out.slice(0, 64)))
    out = mapJsonStrings(out, (literal, isKey) => (isKey ? literal : secretsInLiteral(literal)), secretsIn);
  // The text as given: its traits are known already (reading 8 KiB twice costs more than the rules).
  else out = redactNormalized(out, out === text ? traits : undefined, SECRET_RULES);
  return out === normalized ? text : out;
}

/** `"password": "…"` with its value replaced by the marker (a pair whose key is not a secret's stays). */
function hideSecretValue(pair: string, key: string, separator: string, value: string): string {
  if (!isSecretKey(key)) return pair;
  const secret = marker('secret');
  return `"${key}"${separator}${value.startsWith('"') ? `"${secret}"` : secret}`;
}

/** The credential rules over text, its lines kept. */
function secretsIn(text: string): string {
  return redactNormalized(text, undefined, SECRET_RULES);
}

/** A JSON string literal with its secrets removed, encoded again only when something was. */
function secretsInLiteral(literal: string): string {
  const value = literalValue(literal);
  if ((textTraits(value) & MAY_NEED_REDACTION) === 0) return literal;
  const redacted = secretsIn(value);
  return redacted === value ? literal : JSON.stringify(redacted);
}

/**
 * Tool-call arguments for a developer log (events, the audit record, an approval's request, a span). JSON
 * arguments keep what a developer needs: paths, ids, numbers, URLs and words as the model sent them, each
 * string cut to `DEFAULT_MAX_ARGUMENT_SUMMARY_VALUE_CHARS`; secrets are removed (the values of
 * secret-looking keys, and whatever the credential rules find: keys, tokens, passwords, credentials in a
 * URL, an Oracle `user/password@` login) and personal data (emails, phone numbers and the names beside
 * them, card numbers, IBANs, national ids). Text that is not JSON is redacted like error text. On one
 * line, cut to `maxChars` (with a trailing `…`); each string value to `maxValueChars`.
 */
export function summarizeArguments(
  rawArguments: string,
  maxChars: number,
  maxValueChars: number = DEFAULT_MAX_ARGUMENT_SUMMARY_VALUE_CHARS,
): string {
  const json = JSON_START.test(rawArguments.slice(0, 64));
  // JSON keeps its values cut one by one: the window reaches past a long first value to the next ones.
  let text = windowFor(rawArguments, json ? maxChars * WINDOW_FACTOR : maxChars);
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
  if (json) {
    // Nothing a rule could find and no value to cut (the common call): the text is its own summary.
    const plain = (traits & (MAY_NEED_REDACTION | MAY_HAVE_ESCAPES | NEEDS_COLLAPSING)) === 0;
    if (plain && text.length <= maxValueChars) return cut(text, maxChars);
    const summary = mapJsonStrings(text, (literal) => summaryString(literal, maxValueChars), summaryBetween);
    return cut(summary, maxChars);
  }
  const redacted = redactDecoded(text, true, traits);
  // Markers come only from the secret-key step or from a rule that could match.
  const mayHaveMarkers = (traits & (MAY_NEED_REDACTION | MAY_HAVE_SECRET_KEY)) !== 0 || redacted !== text;
  return cut(mayHaveMarkers ? sayMarkersOnce(redacted) : redacted, maxChars);
}

/** JSON text: an object, an array or a string (what a model's arguments are, broken or not). */
const JSON_START = /^\s*[{["]/;

/** A string of JSON arguments in the summary: its secrets and personal data removed, cut. */
function summaryString(literal: string, maxChars: number): string {
  const value = normalizeAll(windowFor(literalValue(literal), maxChars));
  const plain = (textTraits(value) & (MAY_NEED_REDACTION | MAY_HAVE_ESCAPES)) === 0;
  const redacted = plain ? collapseWhitespace(value) : sayMarkersOnce(redactValue(value, SUMMARY_RULES));
  return JSON.stringify(cut(redacted, maxChars));
}

/** What lies between the strings (structure, numbers): whitespace collapsed, a card number removed. */
function summaryBetween(text: string): string {
  const spaced = COLLAPSIBLE_WHITESPACE.test(text) ? text.replace(WHITESPACE_RUN, ' ') : text;
  return redactNormalized(spaced, undefined, SUMMARY_RULES);
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
function redactDecoded(
  normalized: string,
  oneLine: boolean,
  traits?: number,
  rules: readonly CompiledRule[] = COMPILED,
): string {
  if ((traits === undefined || (traits & MAY_HAVE_ESCAPES) !== 0) && hasEscapes(normalized)) {
    const decoded = normalizeAll(decodeEscapes(normalized));
    if (decoded !== normalized) {
      const decodedRedacted = redactLines(decoded, oneLine, undefined, rules);
      if (decodedRedacted !== (oneLine ? collapseWhitespace(decoded) : decoded)) return decodedRedacted;
    }
  }
  return redactLines(normalized, oneLine, traits, rules);
}

function redactLines(
  normalized: string,
  oneLine: boolean,
  traits: number | undefined,
  rules: readonly CompiledRule[],
): string {
  return oneLine ? redactJoined(normalized, traits, rules) : redactNormalized(normalized, traits, rules);
}

/** A marker repeated (`[redacted:stack] [redacted:stack]`) is said once. */
function sayMarkersOnce(text: string): string {
  return text.includes(MARKER_OPEN) ? text.replace(REPEATED_MARKER, '$1') : text;
}

/** Redacts, joins the lines, and redacts again only when joining changed the text. */
function redactJoined(
  normalized: string,
  traits: number | undefined,
  rules: readonly CompiledRule[],
): string {
  const once = redactNormalized(normalized, traits, rules);
  const collapsible =
    once === normalized && traits !== undefined ? (traits & NEEDS_COLLAPSING) !== 0 : undefined;
  const joined = collapseWhitespace(once, collapsible);
  return joined === once ? once : redactNormalized(joined, undefined, rules);
}

/**
 * A model-supplied name, safe to echo back: control, bidi and zero-width characters removed, cut to
 * `maxChars` (with a trailing `…`); nothing left becomes `(empty)`.
 */
export function sanitizeName(name: string, maxChars = 64): string {
  const shown = cut(normalize(name).replace(TAB_AND_NEWLINE, ''), maxChars);
  return shown === '' ? '(empty)' : shown;
}
