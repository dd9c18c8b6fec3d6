import { MAX_SCHEMA_DEPTH } from '../core/defaults.js';

// Deepest nesting an imported schema may have (defaults.ts): a schema describes each level of its arguments
// with about two levels of its own (`properties` → name), and the chain refuses arguments deeper than
// DEFAULT_MAX_ARGUMENT_DEPTH, so a deeper schema can only describe calls that are refused anyway.

export interface SchemaProblem {
  /** Where, as a dotted path below the schema (`properties.a.items`), '' for the schema itself. */
  readonly path: string;
  readonly message: string;
}

/**
 * Looks for what would make a schema unsafe to compile or impossible to satisfy, before Ajv sees it:
 * nesting deeper than MAX_SCHEMA_DEPTH (or a cycle), `__proto__` keys, which the chain refuses in
 * arguments (FORBIDDEN_KEY) and which some code turns into prototype changes, and values that are not
 * JSON (bigint, functions, symbols). Never recurses, so hostile
 * input cannot overflow the stack.
 */
export function findSchemaProblem(schema: unknown, label = 'schema'): SchemaProblem | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: schema, path: '', depth: 1 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, path, depth } = next;
    if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') {
      return { path: shorten(path), message: `the ${label} holds a ${typeof value}, which is not JSON.` };
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_SCHEMA_DEPTH) {
      return {
        path: shorten(path),
        message: `the ${label} is nested deeper than ${MAX_SCHEMA_DEPTH} levels (or contains a cycle).`,
      };
    }
    if (Object.hasOwn(value, '__proto__')) {
      return {
        path: shorten(join(path, '__proto__')),
        message: `the key "__proto__" is not allowed in a ${label}.`,
      };
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      stack.push({ value: (value as Record<string, unknown>)[key], path: join(path, key), depth: depth + 1 });
    }
  }
  return undefined;
}

/** A path short enough for a message: its head and its tail around `…` when it is long. */
function shorten(path: string): string {
  return path.length <= 120 ? path : `${path.slice(0, 60)}…${path.slice(-50)}`;
}

function join(path: string, key: string): string {
  const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
  return path === '' ? shown : `${path}.${shown}`;
}
