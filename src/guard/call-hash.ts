import { canonicalJson } from '../serialize/serialize-value.js';

// cyrb53 (public domain, bryc): a fast 53-bit hash. Fingerprints only need to tell rounds apart within one
// conversation, not resist an attacker, so a cryptographic hash would be cost without benefit.
// The first seed in its int32 form (0xdeadbeef does not fit one): the same hash, every use truncates to
// 32 bits, but the state stays small integers, never a boxed double.
const SEED1 = 0xdeadbeef | 0;
const SEED2 = 0x41c6ce57;
const MIX1 = 2654435761;
const MIX2 = 1597334677;
const TWO_TO_32 = 4294967296;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const HASH_SIGN = 0x23;

/** The cyrb53 digest of a text, as a safe integer (below 2^53). */
export function hash53(text: string): number {
  let h1 = SEED1;
  let h2 = SEED2;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, MIX1);
    h2 = Math.imul(h2 ^ ch, MIX2);
  }
  return digest(h1, h2);
}

function digest(h1: number, h2: number): number {
  const a = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  const b = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return TWO_TO_32 * (2097151 & b) + (a >>> 0);
}

/**
 * A hash as readable text: its two halves in base 36 (the format fingerprints have always had: cheaper to
 * print than one 53-bit number, and just as distinct).
 */
export function hashText(hash: number): string {
  return `${Math.floor(hash / TWO_TO_32).toString(36)}.${(hash % TWO_TO_32).toString(36)}`;
}

/** JS `\s` (what `trim` removes and `canonicalJson` collapses), by code unit. */
function isWhitespace(c: number): boolean {
  if (c <= SPACE) return c === SPACE || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * The running state of a cyrb53 hash, reused from call to call by its owner (one run of the loop). A
 * plain literal rather than a class instance, for the reason given in loop-guard.ts (optimized code
 * seen lost in full GCs between requests with a class).
 */
export interface HashState {
  h1: number;
  h2: number;
}

export function createHashState(): HashState {
  return { h1: SEED1, h2: SEED2 };
}

/**
 * A call fingerprint as a number: the cyrb53 digest of `tool#canonicalJson(arguments)`. For the usual
 * arguments, a plain object of primitives, the canonical text is streamed into the hash instead of built
 * (keys sorted, numbers as JSON prints them, string values whitespace-normalized and quoted), which is
 * where a guarded round spent most of its time. Anything the stream does not handle exactly as
 * `canonicalJson` would (nesting, escapes other than `\"` and `\\`, lone surrogates, getters that throw)
 * hashes `canonicalJson`'s own text, so both ways give the same number for the same value.
 *
 * `parsed`, when given, is the arguments already parsed (and validated) by the chain. Arguments that are
 * not JSON are hashed as text with whitespace normalized.
 */
export function callHash(state: HashState, toolName: string, rawArguments: string, parsed?: unknown): number {
  if (parsed !== undefined) return valueHash(state, toolName, parsed);
  const text = typeof rawArguments === 'string' ? rawArguments : String(rawArguments);
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    start(state, toolName);
    mixText(state, text.replace(/\s+/g, ' ').trim());
    return digest(state.h1, state.h2);
  }
  return valueHash(state, toolName, value);
}

function valueHash(state: HashState, toolName: string, value: unknown): number {
  start(state, toolName);
  if (mixFlatObject(state, value)) return digest(state.h1, state.h2);
  start(state, toolName);
  mixText(state, canonicalJson(value));
  return digest(state.h1, state.h2);
}

function start(state: HashState, toolName: string): void {
  state.h1 = SEED1;
  state.h2 = SEED2;
  mixText(state, toolName);
  mixChar(state, HASH_SIGN);
}

/**
 * Streams `canonicalJson(value)` for a plain object of strings, finite numbers, booleans, null and
 * undefined (skipped); false, with the state spoiled, for anything else.
 */
function mixFlatObject(state: HashState, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  try {
    if (Object.getPrototypeOf(value) !== Object.prototype) return false;
    const keys = Object.keys(value);
    // Sorted only when not in order already (sorting allocates).
    for (let i = 1; i < keys.length; i++) {
      if (!((keys[i - 1] as string) < (keys[i] as string))) {
        keys.sort();
        break;
      }
    }
    mixChar(state, 0x7b);
    let first = true;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      if (!first) mixChar(state, 0x2c);
      first = false;
      if (!mixQuoted(state, key, false)) return false;
      mixChar(state, 0x3a);
      switch (typeof item) {
        case 'string':
          if (!mixQuoted(state, item, true)) return false;
          break;
        case 'number':
          if (!Number.isFinite(item)) return false;
          if ((item | 0) === item) mixInteger(state, item);
          else mixText(state, String(item));
          break;
        case 'boolean':
          mixText(state, item ? 'true' : 'false');
          break;
        default:
          if (item !== null) return false;
          mixText(state, 'null');
      }
    }
    mixChar(state, 0x7d);
    return true;
  } catch {
    return false;
  }
}

/**
 * Streams `JSON.stringify(normalize ? normalizeWhitespace(text) : text)`: leading and trailing
 * whitespace dropped, inner runs as one space. False where JSON would need an escape beyond `\"`/`\\`.
 */
function mixQuoted(state: HashState, text: string, normalize: boolean): boolean {
  let h1 = Math.imul(state.h1 ^ QUOTE, MIX1);
  let h2 = Math.imul(state.h2 ^ QUOTE, MIX2);
  let pendingSpace = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (normalize && isWhitespace(c)) {
      pendingSpace = started;
      continue;
    }
    if (pendingSpace) {
      h1 = Math.imul(h1 ^ SPACE, MIX1);
      h2 = Math.imul(h2 ^ SPACE, MIX2);
      pendingSpace = false;
    }
    started = true;
    if (c < SPACE) return false;
    if (c === QUOTE || c === BACKSLASH) {
      h1 = Math.imul(h1 ^ BACKSLASH, MIX1);
      h2 = Math.imul(h2 ^ BACKSLASH, MIX2);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A surrogate pair passes as it is; JSON escapes a lone one.
      const next = text.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
      h1 = Math.imul(h1 ^ c, MIX1);
      h2 = Math.imul(h2 ^ c, MIX2);
      c = next;
      i++;
    }
    h1 = Math.imul(h1 ^ c, MIX1);
    h2 = Math.imul(h2 ^ c, MIX2);
  }
  state.h1 = Math.imul(h1 ^ QUOTE, MIX1);
  state.h2 = Math.imul(h2 ^ QUOTE, MIX2);
  return true;
}

function mixText(state: HashState, text: string): void {
  let h1 = state.h1;
  let h2 = state.h2;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, MIX1);
    h2 = Math.imul(h2 ^ ch, MIX2);
  }
  state.h1 = h1;
  state.h2 = h2;
}

/**
 * An int32's decimal digits, as `String` prints them (`-0` as `0`), without making the string (numbers
 * beyond the string cache would each be a new one). Every quotient here is exact: the values are small.
 */
function mixInteger(state: HashState, value: number): void {
  let rest = value;
  if (rest < 0) {
    mixChar(state, 0x2d);
    rest = -rest;
  }
  let unit = 1;
  while (unit * 10 <= rest) unit *= 10;
  // `| 0` keeps it integer division (int32 operands), where Math.floor goes through a double.
  for (; unit > 0; unit = (unit / 10) | 0) {
    const digit = (rest / unit) | 0;
    mixChar(state, 0x30 + digit);
    rest -= digit * unit;
  }
}

function mixChar(state: HashState, ch: number): void {
  state.h1 = Math.imul(state.h1 ^ ch, MIX1);
  state.h2 = Math.imul(state.h2 ^ ch, MIX2);
}
