/**
 * The values the model sent at a path of its arguments, as strings to withhold from an issue's text: a
 * schema library's message may quote the value (`received "postgres://user:S3cr3t@…"`), and the docs
 * promises the model `path: problem` pairs, never the values. Removing the values themselves holds where a
 * redaction pattern would not see a secret (`received "hunter2"`).
 */

/** Shorter strings are left alone: they are words of the message as often as they are values. */
const MIN_STRING_LENGTH = 4;
/** Numbers with fewer digits are counts and lengths; longer ones may be a card or an account number. */
const MIN_NUMBER_LENGTH = 6;
/** Nodes visited and strings kept, at most: the arguments can be a megabyte. */
const MAX_NODES = 2_000;
const MAX_STRINGS = 64;

/**
 * The strings and long numbers under `pointer` in `args` (the parsed arguments: plain JSON), each also in
 * its JSON-escaped form when that differs; none when the pointer leads nowhere (a missing property).
 */
export function argumentStrings(args: unknown, pointer: string): string[] {
  const root = resolvePointer(args, pointer);
  if (root === undefined) return [];
  const found = new Set<string>();
  const stack: unknown[] = [root];
  for (let visited = 0; stack.length > 0 && visited < MAX_NODES && found.size < MAX_STRINGS; visited++) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (node.length >= MIN_STRING_LENGTH) addWithEscaped(found, node);
    } else if (typeof node === 'number') {
      const text = String(node);
      if (text.length >= MIN_NUMBER_LENGTH) found.add(text);
    } else if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (typeof node === 'object' && node !== null) {
      for (const value of Object.values(node)) stack.push(value);
    }
  }
  return [...found];
}

/** Adds a value, and its JSON-escaped form when that differs (an error may quote it inside JSON). */
export function addWithEscaped(found: Set<string>, value: string): void {
  found.add(value);
  const escaped = JSON.stringify(value).slice(1, -1);
  if (escaped !== value) found.add(escaped);
}

/** The value a JSON Pointer leads to in plain JSON, or undefined. */
function resolvePointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let node = value;
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      node = /^(?:0|[1-9]\d*)$/.test(key) ? node[Number(key)] : undefined;
    } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, key)) {
      node = (node as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
  }
  return node;
}
