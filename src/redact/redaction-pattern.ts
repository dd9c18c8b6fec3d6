/**
 * What a redaction rule is, and the cheap guards that let ordinary text skip it.
 *
 * Linear time: every pattern is written so that a failed attempt costs a bounded amount of work,
 * or can only start at the beginning of a run of characters (a lookbehind refuses to start inside
 * the run), so a 1 MB hostile string is scanned a constant number of times. Unbounded quantifiers
 * are only followed by something that cannot fail, or by a single disjoint character.
 *
 * Named groups `pre` and `post`, when present, are kept around the marker (`password=[redacted:secret]`).
 * Every pattern has the `g` flag and is only ever used through `String.prototype.replace`.
 */

import type { Literal } from './literal-scanner.js';

export type RedactionKind =
  | 'key'
  | 'stack'
  | 'sql'
  | 'graphql'
  | 'value'
  | 'identifier'
  | 'url'
  | 'jwt'
  | 'secret'
  | 'email'
  | 'phone'
  | 'name'
  | 'card'
  | 'iban'
  | 'id'
  | 'arn'
  | 'ip'
  | 'path'
  | 'host'
  | 'text';

export interface RedactionPattern {
  readonly kind: RedactionKind;
  readonly pattern: RegExp;
  /**
   * A cheap test that is true whenever `pattern` could match. It lets ordinary short text skip most
   * patterns; it must never be false for text the pattern would change.
   */
  readonly mayMatch: (text: string) => boolean;
  /**
   * For a match that only looks like the thing (a number that may be a card): how much of it to redact,
   * from its start (a check digit passed), or 0 to leave it as it is. Without it, a match is redacted.
   */
  readonly confirm?: (match: string) => number;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A guard that is a list of literals: the text must contain one of them. */
type LiteralGuard = ((text: string) => boolean) & { readonly literals: readonly Literal[] };

/** One precompiled alternation of literals: much cheaper than a pattern's full scan. */
const anyOf = (ignoreCase: boolean, needles: readonly string[]): LiteralGuard => {
  const hint = new RegExp(needles.map(escapeRegExp).join('|'), ignoreCase ? 'i' : '');
  const literals = needles.map((text) => ({ text, ignoreCase }));
  return Object.assign((text: string) => hint.test(text), { literals });
};
export const containsAny = (...needles: string[]): LiteralGuard => anyOf(false, needles);
export const containsAnyIgnoringCase = (...needles: string[]): LiteralGuard => anyOf(true, needles);

/** The literals of every guard that is a list of literals. */
export function redactionLiterals(patterns: readonly RedactionPattern[]): Literal[] {
  return patterns.flatMap(({ mayMatch }) => (mayMatch as Partial<LiteralGuard>).literals ?? []);
}

/** The shortest random-looking token the last pattern redacts. */
export const TOKEN_RUN_LENGTH = 32;
/** The shortest run that may be base64 of `user:password`. */
export const ENCODED_RUN_LENGTH = 12;
/** The fewest digits a card, IBAN, phone number or national identifier has. */
export const IDENTIFIER_DIGITS = 8;

/** Whether `length` characters in a row could belong to one random-looking token. */
export function hasTokenRun(text: string, length: number): boolean {
  if (text.length < length) return false;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = isTokenCharacter(text.charCodeAt(i)) ? run + 1 : 0;
    if (run >= length) return true;
  }
  return false;
}

/** The shortest run of hex digits that may be a key. */
export const HEX_RUN_LENGTH = 32;

/** Whether `length` hex digits follow each other somewhere in the text. */
export function hasHexRun(text: string, length: number): boolean {
  if (text.length < length) return false;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i) | 0x20;
    run = (code >= 48 && code <= 57) || (code >= 97 && code <= 102) ? run + 1 : 0;
    if (run >= length) return true;
  }
  return false;
}

/**
 * Whether `length` token characters follow each other somewhere, one of them past the first a digit,
 * a capital, `+` or `/`: what a base64 run needs (a long word alone is not one).
 */
export function hasEncodedRun(text: string, length: number): boolean {
  let run = 0;
  let mixed = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isTokenCharacter(code)) {
      run = 0;
      mixed = false;
      continue;
    }
    if (run > 0 && ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || code === 43 || code === 47))
      mixed = true;
    if (++run >= length && mixed) return true;
  }
  return false;
}

/** Whether the text holds at least `count` ASCII digits. */
export function hasDigits(text: string, count: number): boolean {
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57 && ++seen >= count) return true;
  }
  return false;
}

/** `[A-Za-z0-9+/=_-]`: what a random-looking token is made of. */
export function isTokenCharacter(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 47 && code <= 57) || // '/' and the digits
    code === 43 || // '+'
    code === 61 || // '='
    code === 95 || // '_'
    code === 45 // '-'
  );
}

/** A keyword in any case, as a regex source that keeps the pattern's other classes case-sensitive. */
export function anyCase(word: string): string {
  return [...word]
    .map((character) => {
      const lower = character.toLowerCase();
      const upper = character.toUpperCase();
      return lower === upper ? escapeRegExp(character) : `[${lower}${upper}]`;
    })
    .join('');
}
