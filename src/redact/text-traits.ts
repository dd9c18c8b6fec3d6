import { LiteralScanner } from './literal-scanner.js';
import {
  ENCODED_RUN_LENGTH,
  IDENTIFIER_DIGITS,
  isTokenCharacter,
  redactionLiterals,
  TOKEN_RUN_LENGTH,
} from './redaction-pattern.js';
import { REDACTION_PATTERNS } from './redaction-patterns.js';
import { SECRET_KEY_HINTS } from './secret-key-words.js';

/** Invisible or control characters, or line breaks other than `\n`, that `normalize` would change. */
export const NEEDS_NORMALIZING = 1;
/** Whitespace that collapsing would change: a run of two, or any whitespace but a plain space. */
export const NEEDS_COLLAPSING = 2;
/** Some redaction pattern could match (a superset of every pattern's own guard). */
export const MAY_NEED_REDACTION = 4;
/** Some JSON key could name a secret: the text holds one of SECRET_KEY_HINTS (secret-key-words.ts). */
export const MAY_HAVE_SECRET_KEY = 8;
/** A `\\`, `&` or `%`: the text may hold escapes to undo (decode-escapes.ts). */
export const MAY_HAVE_ESCAPES = 16;

const LITERALS = new LiteralScanner([
  ...redactionLiterals(REDACTION_PATTERNS).map((literal) => ({ ...literal, tag: MAY_NEED_REDACTION })),
  ...SECRET_KEY_HINTS.map((text) => ({ text, ignoreCase: true, tag: MAY_HAVE_SECRET_KEY })),
]);

/** Any character `normalize` would touch: control and invisible characters, line breaks but `\n`. */
export const NORMALIZING_CHARACTER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\uD800-\uDFFF]/;
/** Whitespace that collapsing would change: a run of two, or any whitespace but a plain space. */
export const COLLAPSIBLE_WHITESPACE = /\s\s|[^\S ]/;

/**
 * What redacting `text` will involve, as bits, found in two passes (characters, then literals) instead
 * of one regex scan per question. Every bit is a superset: set whenever the work could be needed.
 */
export function textTraits(text: string): number {
  let traits = characterTraits(text);
  if ((traits & NON_ASCII) !== 0) {
    traits &= ~NON_ASCII;
    // The exact tests, for the rare text with characters beyond ASCII.
    if (NORMALIZING_CHARACTER.test(text)) traits |= NEEDS_NORMALIZING;
    if (COLLAPSIBLE_WHITESPACE.test(text)) traits |= NEEDS_COLLAPSING;
  }
  return traits | LITERALS.tags(text);
}

/** Whether any redaction pattern could match: the pre-check that lets benign text skip all of them. */
export function mayNeedRedaction(text: string): boolean {
  return (textTraits(text) & MAY_NEED_REDACTION) !== 0;
}

const NON_ASCII = 0x100;

// Classes of ASCII characters, as bits of one table lookup.
const TOKEN = 1;
const SPACE = 2;
const OTHER_WHITESPACE = 4;
const CONTROL = 8;
const COLON = 16;
const DIGIT = 32;
/** Token characters that make a run look encoded rather than a word: digits, capitals, `+` and `/`. */
const MIXING = 64;
const ESCAPE = 128;
const CLASSES = asciiClasses();

function asciiClasses(): Uint8Array {
  const classes = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    let bits = isTokenCharacter(code) ? TOKEN : 0;
    if (code === 32) bits |= SPACE;
    if (code >= 9 && code <= 13) bits |= OTHER_WHITESPACE;
    if (code < 32 && code !== 9 && code !== 10) bits |= CONTROL;
    if (code === 58) bits |= COLON;
    if (code >= 48 && code <= 57) bits |= DIGIT | MIXING;
    if ((code >= 65 && code <= 90) || code === 43 || code === 47) bits |= MIXING;
    if (code === 92 || code === 38 || code === 37) bits |= ESCAPE;
    classes[code] = bits;
  }
  return classes;
}

/**
 * One pass over the characters: control characters, whitespace to collapse, and what the non-literal
 * guards look for (`:` and two digits, `::` or seven colons for IPv6, a long run of token characters
 * or a shorter one that mixes in digits or capitals, enough digits for a card or a phone number).
 */
function characterTraits(text: string): number {
  let traits = 0;
  let colons = 0;
  let digits = 0;
  let run = 0;
  let mixed = false;
  let previous = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const classes = code < 127 ? (CLASSES[code] as number) : 0;
    if ((classes & TOKEN) !== 0) {
      if ((classes & MIXING) !== 0) {
        if ((classes & DIGIT) !== 0 && ++digits >= IDENTIFIER_DIGITS) traits |= MAY_NEED_REDACTION;
        if (run > 0) mixed = true;
      }
      if (++run >= TOKEN_RUN_LENGTH || (mixed && run >= ENCODED_RUN_LENGTH)) traits |= MAY_NEED_REDACTION;
      previous = classes;
      continue;
    }
    run = 0;
    mixed = false;
    if (code >= 127) traits |= NON_ASCII;
    else if (classes !== 0) {
      if ((classes & COLON) !== 0) colons++;
      traits |= specialTraits(text, i, classes, previous, colons);
    }
    previous = classes;
  }
  return traits;
}

/** The traits one character that is neither a token character nor beyond ASCII adds. */
function specialTraits(
  text: string,
  index: number,
  classes: number,
  previous: number,
  colons: number,
): number {
  let traits = 0;
  if ((classes & CONTROL) !== 0) traits |= NEEDS_NORMALIZING;
  if ((classes & ESCAPE) !== 0) traits |= MAY_HAVE_ESCAPES;
  const whitespace = SPACE | OTHER_WHITESPACE;
  if ((classes & OTHER_WHITESPACE) !== 0 || ((classes & SPACE) !== 0 && (previous & whitespace) !== 0))
    traits |= NEEDS_COLLAPSING;
  if ((classes & COLON) !== 0) {
    if ((previous & COLON) !== 0 || colons >= 7) traits |= MAY_NEED_REDACTION;
    if (isDigit(text.charCodeAt(index + 1)) && isDigit(text.charCodeAt(index + 2)))
      traits |= MAY_NEED_REDACTION;
  }
  return traits;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
