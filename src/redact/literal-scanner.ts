/** A literal to look for; `ignoreCase` folds ASCII letters only (as a regex `i` flag without `u` does). */
export interface Literal {
  readonly text: string;
  readonly ignoreCase: boolean;
  /** What `tags` reports when this literal is found: one or more bits of 0xff (default 1). */
  readonly tag?: number;
}

const ASCII = 128;

/**
 * Which of a set of literals a text contains, in one pass. It answers what a regex alternation of the
 * escaped literals answers, but V8's regex engine tries every alternative at every position, so a list
 * of 70 literals costs tens of nanoseconds per character; this looks the first two characters up in a
 * table and compares only the literals that start with them. Literals must be printable ASCII.
 */
export class LiteralScanner {
  /** Tags of the single-character literals, by character code (every case variant when ignoring case). */
  readonly #single = new Uint8Array(ASCII);
  /** The longer literals, by their first two characters: `code0 << 7 | code1`. */
  readonly #byPair: (Literal[] | undefined)[] = new Array(ASCII * ASCII).fill(undefined);
  /** Every tag some literal has: once all are found, scanning further cannot add any. */
  readonly #allTags: number;

  constructor(literals: readonly Literal[]) {
    let all = 0;
    for (const literal of literals) {
      const { text } = literal;
      const tag = literal.tag ?? 1;
      if (!/^[\x20-\x7e]+$/.test(text)) {
        throw new TypeError(`a scanned literal must be printable ASCII, got ${JSON.stringify(text)}`);
      }
      if (!Number.isInteger(tag) || tag < 1 || tag > 0xff) {
        throw new TypeError(`a literal's tag must be bits of 0xff, got ${String(tag)}`);
      }
      all |= tag;
      const first = variants(text.charCodeAt(0), literal.ignoreCase);
      if (text.length === 1) {
        for (const code of first) this.#single[code] = (this.#single[code] as number) | tag;
        continue;
      }
      for (const code0 of first) {
        for (const code1 of variants(text.charCodeAt(1), literal.ignoreCase)) {
          const pair = (code0 << 7) | code1;
          const list = this.#byPair[pair];
          if (list === undefined) this.#byPair[pair] = [literal];
          else if (!list.includes(literal)) list.push(literal);
        }
      }
    }
    this.#allTags = all;
  }

  /** Whether the text contains any of the literals. */
  test(text: string): boolean {
    return this.tags(text) !== 0;
  }

  /** The tags of the literals the text contains, OR-ed together (0 when it contains none). */
  tags(text: string): number {
    const single = this.#single;
    const byPair = this.#byPair;
    const all = this.#allTags;
    const last = text.length - 1;
    let found = 0;
    let code0 = last >= 0 ? text.charCodeAt(0) : ASCII;
    for (let i = 0; i <= last; i++) {
      const code1 = i < last ? text.charCodeAt(i + 1) : ASCII;
      if (code0 < ASCII) {
        const starting = code1 < ASCII ? byPair[(code0 << 7) | code1] : undefined;
        if (single[code0] !== 0 || starting !== undefined) {
          found |= (single[code0] as number) | (starting === undefined ? 0 : tagsAt(text, i, starting));
          if (found === all) return found;
        }
      }
      code0 = code1;
    }
    return found;
  }
}

/** The tags of the literals among `candidates` that occur at `index`. */
function tagsAt(text: string, index: number, candidates: readonly Literal[]): number {
  let found = 0;
  for (const literal of candidates) {
    if (matchesAt(text, index, literal)) found |= literal.tag ?? 1;
  }
  return found;
}

function matchesAt(text: string, index: number, { text: literal, ignoreCase }: Literal): boolean {
  if (index + literal.length > text.length) return false;
  for (let k = 2; k < literal.length; k++) {
    const want = literal.charCodeAt(k);
    const got = text.charCodeAt(index + k);
    if (got !== want && !(ignoreCase && fold(got) === fold(want))) return false;
  }
  return true;
}

/** ASCII lower case; anything else unchanged. */
function fold(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

function variants(code: number, ignoreCase: boolean): number[] {
  if (!ignoreCase) return [code];
  const lower = fold(code);
  return lower >= 97 && lower <= 122 ? [lower, lower - 32] : [code];
}
