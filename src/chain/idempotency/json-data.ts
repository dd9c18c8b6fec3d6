/** Nesting deeper than this is not kept in a record (the result's text still is). */
const MAX_DEPTH = 64;

/**
 * Whether `value` is plain JSON data: what `JSON.parse` of its `JSON.stringify` gives back equal (null,
 * booleans, finite numbers, strings, arrays and plain objects of them). A `Date`, a `Map`, a class
 * instance, `undefined`, a BigInt, a cycle, a getter that throws or data nested deeper than 64 levels is
 * not. Such a value is not recorded: a replay carries the text the model saw, without the value.
 */
export function isJsonData(value: unknown): boolean {
  try {
    return check(value, 0);
  } catch {
    return false;
  }
}

function check(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let index = 0; index < value.length; index++) {
      if (!check(value[index], depth + 1)) return false;
    }
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!check(record[key], depth + 1)) return false;
  }
  return true;
}
