/**
 * The BFCL multi-turn API classes, rewritten in TypeScript after BFCL's Python backends
 * (gorilla `berkeley-function-call-leaderboard/bfcl_eval/eval_checker/multi_turn_eval/func_source_code/`,
 * commit 6ea57973, Apache-2.0), so that a replayed call gets the result the real class gives: the same
 * state changes, the same values, the same quirks. Where they differ it says so at the method.
 */

/** Keyword arguments of one call, positional ones already named (see `nameArguments`). */
export type Args = Readonly<Record<string, unknown>>;

/** One method of a class: what the Python method returns (`null` for `None`), or a `PythonError`. */
export type Method = (args: Args) => unknown;

/** One API class, loaded from its `initial_config`: its public methods by name. */
export interface BfclApi {
  readonly methods: Readonly<Record<string, Method>>;
}

/**
 * What a Python method raises (a `ValueError`, a `KeyError`). BFCL's executor catches it and hands the
 * model `Error during execution: <str(error)>`; `callBfclMethod` does the same.
 */
export class PythonError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'PythonError';
  }
}

/** A method's result as BFCL's executor gives it: its value, or the text of what it raised. */
export function callBfclMethod(method: Method, args: Args): unknown {
  try {
    return method(args);
  } catch (error) {
    if (error instanceof PythonError) return `Error during execution: ${error.message}`;
    throw error;
  }
}

/** The argument, or the Python signature's default when the call leaves it out. */
export function arg<T>(args: Args, name: string, fallback: T): T {
  return Object.hasOwn(args, name) ? (args[name] as T) : fallback;
}

/** A required argument (the schema has checked it is there). */
export function required<T>(args: Args, name: string): T {
  if (!Object.hasOwn(args, name)) throw new PythonError('TypeError', `missing required argument: '${name}'`);
  return args[name] as T;
}

/** The line breaks of Python's `str.splitlines()` (`\r\n` counts as one). */
const LINE_BREAKS: ReadonlySet<string> = new Set([
  '\n',
  '\r',
  '\v',
  '\f',
  '\x1c',
  '\x1d',
  '\x1e',
  '\x85',
  '\u2028',
  '\u2029',
]);

/** Python's `str.splitlines()`: every line break Python knows, no empty last line. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (!LINE_BREAKS.has(char)) {
      line += char;
      continue;
    }
    if (char === '\r' && text.charAt(index + 1) === '\n') index++;
    lines.push(line);
    line = '';
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Python's `str.lower()` on a value of any type: raises as Python does on anything but a string. */
export function pyLower(value: unknown): string {
  if (typeof value !== 'string')
    throw new PythonError('AttributeError', `'${pyType(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
}

/** The Python type name of a JSON value, for error texts. */
export function pyType(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'boolean':
      return 'bool';
    default:
      return 'dict';
  }
}

/** Python's truth value of a JSON value. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** A deep copy of a JSON value (`copy.deepcopy` of the scenario). */
export function deepCopy<T>(value: T): T {
  return structuredClone(value);
}
