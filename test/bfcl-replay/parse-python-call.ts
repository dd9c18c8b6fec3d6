/**
 * One BFCL multi-turn ground-truth call, `cd(folder='document')` or `mean([37])`: the function, its
 * positional arguments, its keyword arguments. Values are Python literals read as JSON values.
 */
export interface PythonCall {
  readonly name: string;
  readonly positional: readonly unknown[];
  readonly keywords: Readonly<Record<string, unknown>>;
}

/**
 * Reads a call written in Python's syntax, as BFCL's possible answers hold them: a name, then positional
 * and keyword arguments whose values are literals (strings in either quote with backslash escapes,
 * numbers, `True`/`False`/`None`, lists, tuples, dicts). Anything else throws, naming the position: the
 * ground truth is data, and a call read wrong would replay a different run.
 */
export function parsePythonCall(text: string): PythonCall {
  const reader = new Reader(text);
  reader.skipSpace();
  const name = reader.identifier();
  reader.expect('(');
  const positional: unknown[] = [];
  const keywords: Record<string, unknown> = {};
  reader.skipSpace();
  while (!reader.take(')')) {
    const keyword = reader.keyword();
    if (keyword === undefined) {
      if (Object.keys(keywords).length > 0) reader.fail('a positional argument after a keyword one');
      positional.push(reader.value());
    } else {
      if (Object.hasOwn(keywords, keyword)) reader.fail(`the keyword ${keyword} twice`);
      Object.defineProperty(keywords, keyword, {
        value: reader.value(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    reader.skipSpace();
    if (!reader.take(',')) {
      reader.expect(')');
      break;
    }
    reader.skipSpace();
  }
  reader.skipSpace();
  if (!reader.atEnd()) reader.fail('text after the call');
  return { name, positional, keywords };
}

const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
};

const CONSTANTS: Readonly<Record<string, unknown>> = { True: true, False: false, None: null };

/** A cursor over the call's text. */
class Reader {
  #at = 0;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  atEnd(): boolean {
    return this.#at >= this.#text.length;
  }

  skipSpace(): void {
    while (/\s/.test(this.#text[this.#at] ?? '')) this.#at++;
  }

  take(char: string): boolean {
    if (this.#text[this.#at] !== char) return false;
    this.#at++;
    return true;
  }

  expect(char: string): void {
    this.skipSpace();
    if (!this.take(char)) this.fail(`expected ${char}`);
  }

  identifier(): string {
    const match = /^[A-Za-z_]\w*/.exec(this.#text.slice(this.#at));
    if (match === null) this.fail('expected a name');
    this.#at += match[0].length;
    return match[0];
  }

  /** `name=` ahead (not `==`): the keyword, consumed; else nothing is consumed. */
  keyword(): string | undefined {
    const match = /^([A-Za-z_]\w*)\s*=(?!=)\s*/.exec(this.#text.slice(this.#at));
    if (match === null || match[1] === undefined) return undefined;
    this.#at += match[0].length;
    return match[1];
  }

  value(): unknown {
    this.skipSpace();
    const char = this.#text[this.#at];
    if (char === "'" || char === '"') return this.string(char);
    if (char === '[') return this.sequence(']');
    if (char === '(') return this.sequence(')');
    if (char === '{') return this.dict();
    const number = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(this.#text.slice(this.#at));
    if (number !== null) {
      this.#at += number[0].length;
      return Number(number[0]);
    }
    const name = this.identifier();
    if (!Object.hasOwn(CONSTANTS, name)) this.fail(`${name} is not a literal`);
    return CONSTANTS[name];
  }

  string(quote: string): string {
    this.#at++;
    let out = '';
    for (;;) {
      const char = this.#text[this.#at++];
      if (char === undefined) this.fail('an unterminated string');
      if (char === quote) return out;
      if (char !== '\\') {
        out += char;
        continue;
      }
      const next = this.#text[this.#at++];
      if (next === undefined) this.fail('an unterminated string');
      // Python keeps the backslash of an escape it does not know (`'\d'` is two characters).
      out += Object.hasOwn(ESCAPES, next) ? ESCAPES[next] : `\\${next}`;
    }
  }

  sequence(close: string): unknown[] {
    this.#at++;
    const items: unknown[] = [];
    this.skipSpace();
    while (!this.take(close)) {
      items.push(this.value());
      this.skipSpace();
      if (!this.take(',')) {
        this.expect(close);
        break;
      }
      this.skipSpace();
    }
    return items;
  }

  dict(): Record<string, unknown> {
    this.#at++;
    const entries: Record<string, unknown> = {};
    this.skipSpace();
    while (!this.take('}')) {
      const key = this.value();
      if (typeof key !== 'string') this.fail('a dict key that is not a string');
      this.expect(':');
      Object.defineProperty(entries, key, {
        value: this.value(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipSpace();
      if (!this.take(',')) {
        this.expect('}');
        break;
      }
      this.skipSpace();
    }
    return entries;
  }

  fail(problem: string): never {
    throw new SyntaxError(`${problem} at ${this.#at} in ${this.#text}`);
  }
}
