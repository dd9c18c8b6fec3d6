import { MAX_PROXY_CONFIG_PROBLEMS } from '../core/defaults.js';
import { type NumberOptionRule, numberOptionProblem } from './check-option.js';
import { didYouMean } from './did-you-mean.js';

/** One thing wrong with a config file: where (a JSON path such as `$.limits.perTool`) and what. */
export interface ConfigProblem {
  readonly path: string;
  readonly message: string;
}

/** Characters of a key or a value quoted in a problem: a 10 MB string is named, not echoed. */
const MAX_QUOTED_CHARS = 40;

/**
 * Reads a config file (`toolwarden mcp-proxy`'s, `toolwarden gateway`'s) value by value, collecting every problem with its JSON path instead of stopping at the
 * first. Each read returns the value when it is usable and `undefined` when it is not (the problem
 * recorded), so the caller fills in the default and goes on reading the rest.
 */
export class ConfigReader {
  readonly problems: ConfigProblem[] = [];
  omitted = 0;

  problem(path: string, message: string): void {
    if (this.problems.length < MAX_PROXY_CONFIG_PROBLEMS) this.problems.push({ path, message });
    else this.omitted++;
  }

  /** A plain object with only `known` keys (an unknown key is a problem, with a suggestion when close). */
  object(value: unknown, path: string, known: readonly string[]): Record<string, unknown> | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problem(path, `must be an object, got ${describe(value)}`);
      return undefined;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (known.includes(key)) continue;
      const near = didYouMean(key, known);
      this.problem(
        keyPath(path, key),
        `is not a known key${near === undefined ? '' : ` (did you mean "${near}"?)`}; known: ${known.join(', ')}`,
      );
    }
    return record;
  }

  /**
   * An object whose keys are names the user chooses (tool names), each value read by `read`; the result
   * has no prototype, so a key such as `constructor` is only a name. `__proto__` is refused outright.
   */
  map<T>(
    value: unknown,
    path: string,
    read: (entry: unknown, path: string) => T | undefined,
    checkKey: (key: string, path: string) => boolean = (key, at) => this.name(key, at, false),
  ): Readonly<Record<string, T>> | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problem(path, `must be an object keyed by name, got ${describe(value)}`);
      return undefined;
    }
    const result: Record<string, T> = Object.create(null);
    for (const [key, entry] of Object.entries(value)) {
      const at = keyPath(path, key);
      if (key === '__proto__') {
        this.problem(at, 'the name "__proto__" is not allowed');
        continue;
      }
      if (!checkKey(key, at)) continue;
      const checked = read(entry, at);
      if (checked !== undefined) result[key] = checked;
    }
    return result;
  }

  /** A tool name (or, with `glob`, a pattern with `*`): non-empty, at most `MAX_NAME_CHARS`, not `__proto__`. */
  name(value: unknown, path: string, glob: boolean): value is string {
    if (typeof value !== 'string' || value === '' || value.length > MAX_NAME_CHARS) {
      this.problem(path, `must be a tool name (1 to ${MAX_NAME_CHARS} characters), got ${describe(value)}`);
      return false;
    }
    if (value === '__proto__') {
      this.problem(path, 'the name "__proto__" is not allowed');
      return false;
    }
    if (!glob && value.includes('*')) {
      this.problem(path, 'must be a tool name: "*" patterns belong in allow and deny');
      return false;
    }
    return true;
  }

  /** A list of tool names (or patterns), at most `MAX_LIST_ENTRIES`. */
  names(value: unknown, path: string, glob: boolean): readonly string[] | undefined {
    if (!Array.isArray(value) || value.length > MAX_LIST_ENTRIES) {
      this.problem(
        path,
        `must be an array of at most ${MAX_LIST_ENTRIES} tool names, got ${describe(value)}`,
      );
      return undefined;
    }
    const names: string[] = [];
    value.forEach((entry, index) => {
      if (this.name(entry, `${path}[${index}]`, glob)) names.push(entry);
    });
    return names.length === value.length ? [...new Set(names)] : undefined;
  }

  boolean(value: unknown, path: string): boolean | undefined {
    if (typeof value === 'boolean') return value;
    this.problem(path, `must be true or false, got ${describe(value)}`);
    return undefined;
  }

  number(value: unknown, path: string, rule: Omit<NumberOptionRule, 'option'>): number | undefined {
    const problem = numberOptionProblem(value, { ...rule, option: path });
    if (problem === undefined) return (value as number) + 0;
    this.problem(path, problem);
    return undefined;
  }

  string(value: unknown, path: string, maxChars: number): string | undefined {
    if (typeof value === 'string' && value !== '' && value.length <= maxChars) return value;
    this.problem(
      path,
      `must be a non-empty string of at most ${maxChars} characters, got ${describe(value)}`,
    );
    return undefined;
  }

  /** One of a few literal strings. */
  oneOf<T extends string>(value: unknown, path: string, choices: readonly T[]): T | undefined {
    if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
    const near = typeof value === 'string' ? didYouMean(value, choices) : undefined;
    const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
    this.problem(path, `must be ${choices.map((c) => `"${c}"`).join(' or ')}, got ${describe(value)}${hint}`);
    return undefined;
  }
}

/** Tool names and patterns: MCP allows 128 characters; older servers are given twice that. */
export const MAX_NAME_CHARS = 256;
/** Entries of a list of names (allow, deny, the tools to confirm or make idempotent). */
export const MAX_LIST_ENTRIES = 1_000;

/** The path of a key below `path`: `$.limits.perTool`, or `$.timeouts.tools["my tool"]` for other keys. */
export function keyPath(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key) && key.length <= MAX_QUOTED_CHARS) return `${path}.${key}`;
  return `${path}[${quote(key)}]`;
}

/** A value as a problem names it: its type, and a short preview. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case 'string':
      return `the string ${quote(value)}`;
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

function quote(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, MAX_QUOTED_CHARS))}… (${text.length} characters)`;
}

/** An object with exactly one of `keys`: a choice of kind, spelled as the key that carries its value. */
export function oneKeyObject<K extends string>(
  value: unknown,
  path: string,
  keys: readonly K[],
  reader: ConfigReader,
): { key: K; value: unknown } | undefined {
  const object = reader.object(value, path, keys);
  if (object === undefined) return undefined;
  const given = keys.filter((key) => object[key] !== undefined);
  if (given.length === 1) {
    const key = given[0] as K;
    return { key, value: object[key] };
  }
  if (given.length > 1 || Object.keys(object).length === 0)
    reader.problem(path, `must hold exactly one of ${keys.map((key) => `"${key}"`).join(', ')}`);
  return undefined;
}
