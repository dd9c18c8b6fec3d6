/**
 * Whether a text contains any of a set of ASCII literals, ignoring ASCII case. One pass over the text with
 * a first-character table: for short, ordinary text this is several times cheaper than a regex alternation
 * of dozens of literals with the `i` flag, and it is linear in the text whatever the literals.
 */
export function createLiteralMatcher(literals: readonly string[]): (text: string) => boolean {
  const byFirst: Array<string[] | undefined> = new Array(128);
  for (const literal of literals) {
    const lower = literal.toLowerCase();
    const first = lower.charCodeAt(0);
    if (literal.length === 0 || first >= 128)
      throw new TypeError(`literals must be non-empty ASCII: ${literal}`);
    const bucket = byFirst[first] ?? [];
    bucket.push(lower);
    byFirst[first] = bucket;
  }
  return (text) => {
    const length = text.length;
    for (let i = 0; i < length; i++) {
      const candidates = byFirst[lowerAscii(text.charCodeAt(i))];
      if (candidates === undefined) continue;
      for (const literal of candidates) if (matchesAt(text, i, literal)) return true;
    }
    return false;
  };
}

function lowerAscii(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

function matchesAt(text: string, at: number, literal: string): boolean {
  if (at + literal.length > text.length) return false;
  for (let j = 1; j < literal.length; j++) {
    if (lowerAscii(text.charCodeAt(at + j)) !== literal.charCodeAt(j)) return false;
  }
  return true;
}
