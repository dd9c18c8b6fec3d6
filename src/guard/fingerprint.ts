import { DEFAULT_SAME_RESULT_MIN_CHARS } from '../core/defaults.js';
import { canonicalArguments, canonicalJson } from '../serialize/canonical-json.js';
import { withoutTruncationMarker } from '../serialize/truncate-text.js';
import type { LoopHints } from '../tools/loop-hints.js';
import { type ResolvedHints, resolveHints, VOLATILE_FIELD_PATTERN } from './loop-hints.js';
import { maskFreshIds, maskProse, maskSpellings, maskVolatile, numberFrame } from './volatile-values.js';

// cyrb53 (public domain, bryc): a fast 53-bit hash. Fingerprints only need to tell rounds apart within one
// conversation, not resist an attacker, so a cryptographic hash would be cost without benefit.
const TWO_TO_32 = 4294967296;

/** The cyrb53 digest of a text, as a safe integer (below 2^53): the guard's one hash. */
export function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return TWO_TO_32 * (2097151 & h2) + (h1 >>> 0);
}

/** A digest as text: its two halves in base 36 (the form evidence shows). */
export function hashText(hash: number): string {
  return `${Math.floor(hash / TWO_TO_32).toString(36)}.${(hash % TWO_TO_32).toString(36)}`;
}

/** The digest of a call: the tool name and the arguments as the model sent them, in canonical form. */
export function callDigest(toolName: string, rawArguments: string): number {
  return hash53(`${toolName}#${canonicalArguments(rawArguments)}`);
}

/** A call's digests, from one canonical reading of its arguments (see `GuardState`'s call records). */
export interface CallDigests {
  readonly call: number;
  /** For a write, with generated-looking ids left out; undefined when that is the call. */
  readonly shape?: number;
  /** With prose left out (and a read's volatile-looking values); undefined when that is the shape. */
  readonly gist?: number;
  /** A read's arguments with their whole integers left out, and their sum (a page number that steps). */
  readonly pace?: readonly [frame: number, sum: number];
}

/**
 * Every digest the detectors compare a call by, from one canonical reading of the arguments:
 * - the shape: a read keeps its exact arguments (two reads that differ by an id ask for two things, even
 *   when the ids look random); a write has its generated-looking ids left out (the same write with a
 *   fresh client id is the same write again);
 * - the gist: the arguments with prose left out (a reworded reason or query is the same move), and for
 *   a read its volatile-looking values too and its URLs written one way. Two calls with one gist are
 *   near each other;
 * - a read's pace: its arguments with whole integers left out, and their sum. Two reads with one pace
 *   and sums one apart step through pages (near each other too, where ids 17 and 23 are not).
 */
export function callDigests(
  toolName: string,
  rawArguments: string,
  write: boolean,
  withGist = true,
): CallDigests {
  const canonical = canonicalArguments(rawArguments);
  const call = hash53(`${toolName}#${canonical}`);
  const shaped = write ? maskFreshIds(canonical) : canonical;
  const shape = shaped === canonical ? call : hash53(`${toolName}#${shaped}`);
  // A read's gist serves only the same-result detector, which reads content-bearing answers: the caller
  // leaves it out for a short one.
  if (!write && !withGist) return { call };
  const prose = maskProse(write ? canonical : maskSpellings(maskVolatile(canonical)));
  const gist = prose === shaped ? shape : hash53(`${toolName}#${prose}`);
  const numbers = write ? undefined : numberFrame(`${toolName}#${canonical}`);
  const pace = numbers === undefined ? {} : { pace: [numbers.frame, numbers.sum] as const };
  if (gist !== shape) return shape === call ? { call, gist, ...pace } : { call, shape, gist, ...pace };
  return shape === call ? { call, ...pace } : { call, shape, ...pace };
}

/** A result's digest, whether it carries content (for the same-result detector), and its number frame. */
export interface ResultDigest {
  readonly digest: number;
  readonly content: boolean;
  /** The digest of the text with its numbers left out, and their sum; undefined without a digit. */
  readonly frame?: number;
  readonly sum?: number;
}

/**
 * The digest of a result as the model saw it: the text without a truncation marker; when the text is
 * JSON and fields are to be left out (the tool's hints, or a default volatile field appears) or array
 * order does not count, the canonical text of what is left; then volatile-looking values (a time, a
 * UUID, an opaque token) are left out. `content`: the text is long enough to be more than a verdict, an
 * ack or an empty answer.
 */
export function resultDigest(shown: string, hints: ResolvedHints): ResultDigest {
  let text = withoutTruncationMarker(shown);
  const first = text.charCodeAt(0);
  const json = first === 0x7b /* { */ || first === 0x5b; /* [ */
  if (json && text === shown && (hints.ownFields || hints.unordered || VOLATILE_FIELD_PATTERN.test(text))) {
    try {
      text = canonicalJson(JSON.parse(text), { skipKey: hints.skipKey, unordered: hints.unordered });
    } catch {
      // Not JSON after all (or too deep to write): the text as it is.
    }
  }
  text = maskVolatile(text);
  const digest = hash53(text);
  const content = text.length >= DEFAULT_SAME_RESULT_MIN_CHARS;
  // Only JSON has number values to count in.
  const numbers = json ? numberFrame(text) : undefined;
  return numbers === undefined
    ? { digest, content }
    : { digest, content, frame: numbers.frame, sum: numbers.sum };
}

/**
 * The meaning of a call, as evidence shows it (`tool#digest`): the tool name and its arguments in
 * canonical form (keys sorted, numbers normalized, whitespace between JSON tokens ignored, whitespace
 * inside strings kept), so `{"q": "a", "n": 1.0}` and `{"n":1,"q":"a"}` are the same call.
 */
export function callFingerprint(toolName: string, rawArguments: string): string {
  return callFingerprintText(toolName, callDigest(toolName, rawArguments));
}

/** The meaning of a result, as evidence shows it: see `resultDigest`; `hints` as a tool would declare them. */
export function resultFingerprint(content: string, hints?: LoopHints): string {
  return hashText(resultDigest(content, resolveHints(hints, undefined)).digest);
}

/** The text form of a call digest. */
export function callFingerprintText(toolName: string, call: number): string {
  return `${toolName}#${hashText(call)}`;
}
