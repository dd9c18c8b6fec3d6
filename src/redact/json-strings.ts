/**
 * JSON text as its string literals and what lies between them (structure, numbers, literals), broken
 * JSON included: a literal the text cuts off runs to its end. Linear: one scan, each literal read once.
 */

/** A string literal, closed or cut off by the end of the text. */
const STRING_LITERAL = /"(?:[^"\\]|\\[\s\S])*"?/g;
/** What makes the literal just read a key: a `:` after it. */
const KEY_COLON = /\s*:/y;

/** Rebuilds `text` with each literal through `onString` (told whether it is a key) and the rest through `onRest`. */
export function mapJsonStrings(
  text: string,
  onString: (literal: string, isKey: boolean) => string,
  onRest: (text: string) => string,
): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(STRING_LITERAL)) {
    const literal = match[0];
    const end = match.index + literal.length;
    KEY_COLON.lastIndex = end;
    out += onRest(text.slice(last, match.index)) + onString(literal, KEY_COLON.test(text));
    last = end;
  }
  return out + onRest(text.slice(last));
}

/** The value of a literal as `mapJsonStrings` gives it; a broken one is read as far as it can be. */
export function literalValue(literal: string): string {
  for (const candidate of [literal, `${literal}"`]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value === 'string') return value;
    } catch {
      // Not closed, or a broken escape: the next reading.
    }
  }
  return literal.slice(1);
}
