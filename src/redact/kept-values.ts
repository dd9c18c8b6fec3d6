/**
 * Values kept verbatim through redaction: the strings the model itself sent in a call's arguments, where
 * an error text echoes them (`ENOENT: no such file or directory, open '/data/q3.csv'`). Each occurrence is
 * held out of the rules' sight as one private-use character and put back after them. An occurrence glued
 * to more of a token (`admin` in `admin:pw@db`, `q3.csv` in `/srv/data/q3.csv`) is not held: the rules
 * judge the whole token, which the model did not send, as before.
 */

const FIRST_PLACEHOLDER = 0xe000;
/** Values held at most (one placeholder character each). */
const MAX_HELD = 64;
const PLACEHOLDER = /[\uE000-\uE03F]/g;
const HAS_PLACEHOLDER = /[\uE000-\uE03F]/;
/** A neighbour that makes an occurrence part of a longer token: letters, digits, and the joiners of paths, URLs and pairs. */
const GLUE = /[\p{L}\p{N}\p{M}_@:/\\=+%~&$#*-]/u;
const WORD = /[\p{L}\p{N}_]/u;

/** A text with some values held out, and how to put them back into what became of it. */
export interface HeldText {
  readonly text: string;
  /** Puts each held value back (as `shape` shows it); a placeholder a rule swallowed stays gone. */
  restore(redacted: string, shape: (value: string) => string): string;
}

const NOTHING_HELD = (text: string): HeldText => ({ text, restore: (redacted) => redacted });

/** Holds out each occurrence of the values (longest first) that stands on its own in `text`. */
export function holdValues(text: string, values: readonly string[]): HeldText {
  // A text that has such characters already is redacted as it is: nothing could be put back safely.
  if (values.length === 0 || HAS_PLACEHOLDER.test(text)) return NOTHING_HELD(text);
  const held: string[] = [];
  let out = text;
  const longestFirst = [...new Set(values)].sort((a, b) => b.length - a.length);
  for (const value of longestFirst) {
    if (held.length >= MAX_HELD) break;
    if (value === '' || !out.includes(value)) continue;
    const placeholder = String.fromCharCode(FIRST_PLACEHOLDER + held.length);
    const replaced = replaceStandalone(out, value, placeholder);
    if (replaced === out) continue;
    held.push(value);
    out = replaced;
  }
  if (held.length === 0) return NOTHING_HELD(text);
  return {
    text: out,
    restore: (redacted, shape) =>
      redacted.replace(PLACEHOLDER, (character) => {
        const value = held[character.charCodeAt(0) - FIRST_PLACEHOLDER];
        return value === undefined ? '' : shape(value);
      }),
  };
}

/** `text` with each occurrence of `value` that no token character touches replaced. */
function replaceStandalone(text: string, value: string, placeholder: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) {
    if (!standsAlone(text, at, at + value.length)) continue;
    out += text.slice(from, at) + placeholder;
    from = at + value.length;
  }
  return from === 0 ? text : out + text.slice(from);
}

function standsAlone(text: string, start: number, end: number): boolean {
  const before = text[start - 1];
  const after = text[end];
  if (before !== undefined && (before === '.' || GLUE.test(before))) return false;
  if (after === undefined) return true;
  // A full stop ends a sentence; followed by a word it continues the token (`a.txt`).
  if (after === '.') return !WORD.test(text[end + 1] ?? '');
  return !GLUE.test(after);
}
