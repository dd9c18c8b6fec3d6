// Values that change on every call without meaning anything new: a clock, a random id, a token. The
// guard compares results (and a write's arguments) with these left out, so a result that differs from
// the last one only by a fresh request id is the same answer. Each pattern is one a person reading two
// such results would dismiss at a glance; a structured id (`ORD-2024-00017`) is not one of them.
const ISO_TIME = String.raw`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?`;
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
// Seconds or milliseconds since 1970, from 2001 to 2286: a clock reading, not a quantity.
const EPOCH = String.raw`(?<![\d.])1\d{9}(?:\d{3})?(?:\.\d+)?(?![\d.])`;
const CANDIDATE = '(?<![A-Za-z0-9_+/=-])[A-Za-z0-9_+/=-]{12,}';
// A short hex id (a request id, a commit): 8 or more hex digits, letters and digits both.
const HEX = '(?<![A-Za-z0-9_-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{8,}(?![A-Za-z0-9_-])';

const VOLATILE = new RegExp(`${ISO_TIME}|${UUID}|${EPOCH}|${HEX}|(${CANDIDATE})`, 'g');
// What a write's arguments may hold that makes no new write: ids and tokens, not times (a reminder at
// 9:00 and one at 15:00 are two reminders).
const FRESH_ID = new RegExp(`${UUID}|${HEX}|(${CANDIDATE})`, 'g');
const MASK = '\u2217';

/** The text with every volatile-looking value replaced by one mark (the same text when there is none). */
export function maskVolatile(text: string): string {
  return mayHoldVolatile(text) ? text.replace(VOLATILE, masked) : text;
}

/** The text with every id or token that looks generated replaced by one mark (a fresh client id). */
export function maskFreshIds(text: string): string {
  return mayHoldVolatile(text) ? text.replace(FRESH_ID, masked) : text;
}

/**
 * Whether a text may hold a volatile-looking value, in one pass without a regular expression: every one
 * is a run of 8 or more id characters (`[A-Za-z0-9_+/=-]`) with a digit, or of 12 or more with both cases.
 * Most answers have none, and skip the costly expression.
 */
function mayHoldVolatile(text: string): boolean {
  let run = 0;
  let digit = false;
  let upper = false;
  let lower = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isDigit = code >= 48 && code <= 57;
    const isUpper = code >= 65 && code <= 90;
    const isLower = code >= 97 && code <= 122;
    if (
      isDigit ||
      isUpper ||
      isLower ||
      code === 95 ||
      code === 43 ||
      code === 47 ||
      code === 61 ||
      code === 45
    ) {
      run++;
      digit ||= isDigit;
      upper ||= isUpper;
      lower ||= isLower;
      if ((run >= 8 && digit) || (run >= 12 && upper && lower)) return true;
    } else {
      run = 0;
      digit = upper = lower = false;
    }
  }
  return false;
}

function masked(found: string, candidate?: string): string {
  return candidate === undefined || looksRandom(candidate) ? MASK : found;
}

/**
 * An opaque token (base64, a nanoid, a hex digest): its characters switch between lower case, upper case
 * and digits often, the way a random generator writes them, where a structured id (`ORD-2024-00017`,
 * `helloworld123`) or an identifier (`getElementById`) switches a few times. With a digit, one switch
 * in four characters; letters only (camelCase switches too), one in two.
 */
function looksRandom(token: string): boolean {
  let switches = 0;
  let digits = false;
  let previous = 0;
  for (let index = 0; index < token.length; index++) {
    const code = token.charCodeAt(index);
    const kind =
      code >= 48 && code <= 57 ? 1 : code >= 65 && code <= 90 ? 2 : code >= 97 && code <= 122 ? 3 : 0;
    if (kind === 1) digits = true;
    if (kind !== 0 && previous !== 0 && kind !== previous) switches++;
    if (kind !== 0) previous = kind;
  }
  return switches * (digits ? 4 : 2) >= token.length;
}

// A URL as a JSON string (one linear pass; the spelling is undone in the callback, not by backtracking).
const URL_STRING = /"(?:https?:)?\/\/[^"\s]*"/gi;

/**
 * Canonical arguments with each URL written one way (`https://www.Shop.example/pricing/` and
 * `http://shop.example/pricing` are one page): its scheme, a `www.`, the host's case and a trailing
 * slash are spellings. Calls that differ only so are near each other.
 */
export function maskSpellings(canonical: string): string {
  return canonical.includes('//') ? canonical.replace(URL_STRING, oneSpelling) : canonical;
}

function oneSpelling(quoted: string): string {
  const url = quoted.slice(quoted.indexOf('//') + 2, -1);
  const slash = url.indexOf('/');
  const host = (slash === -1 ? url : url.slice(0, slash)).toLowerCase().replace(/^www\./, '');
  const path = slash === -1 ? '' : url.slice(slash);
  return `"//${host}${path.endsWith('/') ? path.slice(0, -1) : path}"`;
}

// A JSON string holding whitespace between words: prose (a reason, a note, a message body).
const PROSE = /"(?:[^"\\\s]|\\.)*\s(?:[^"\\]|\\.)*"/g;

/**
 * Canonical arguments with prose strings replaced by one mark: what a call does, apart from how it was
 * worded (`set_priority(high, "customer asked")` and `set_priority(high, "per policy")` are one move).
 */
export function maskProse(canonical: string): string {
  return canonical.replace(PROSE, `"${MASK}"`);
}

/**
 * A JSON result's numbers apart from the rest, in one pass: the digest of its text with each whole
 * integer value (after `:`, `[` or `,`, before `,`, `]` or `}`) read as one mark, and the sum of those
 * values (bounded). Two results of one call with the same frame and sums one apart differ by a counter
 * that counts the calls (an attempt number), which says nothing new. Undefined without such a value.
 */
export function numberFrame(text: string): { readonly frame: number; readonly sum: number } | undefined {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let sum = 0;
  let found = false;
  let previous = 0;
  for (let i = 0; i < text.length; i++) {
    let ch = text.charCodeAt(i);
    if (ch >= 48 && ch <= 57 && (previous === 58 || previous === 91 || previous === 44)) {
      let end = i;
      let value = 0;
      while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) {
        value = value * 10 + text.charCodeAt(end) - 48;
        end++;
      }
      let after = end;
      while (isSpace(text.charCodeAt(after))) after++;
      const next = text.charCodeAt(after);
      if (next === 44 || next === 93 || next === 125) {
        found = true;
        sum = (sum + (end - i <= 9 ? value : 0)) % Number.MAX_SAFE_INTEGER;
        ch = 35; // '#'
        i = end - 1;
      }
    }
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
    if (!isSpace(ch)) previous = ch;
  }
  if (!found) return undefined;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return { frame: 4294967296 * (2097151 & h2) + (h1 >>> 0), sum };
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}
