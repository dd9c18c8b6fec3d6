import type { ToolErrorCode } from '../core/tool-execution-result.js';

/** Bounds on a call's argument text: its size and its nesting. */
export interface ParseArgumentsLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
}

export type ParseArgumentsOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly code: ToolErrorCode; readonly message: string };

/**
 * Turns the model's raw argument text into an object, or says what is wrong in words the model can act on.
 * Blank text means `{}`. Oversized text is refused before parsing; too-deep nesting and keys that could
 * reach a prototype (`__proto__`, `constructor.prototype`) are refused after. Never throws.
 */
export function parseArguments(raw: unknown, limits: ParseArgumentsLimits): ParseArgumentsOutcome {
  const text = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : undefined;
  if (text === undefined) {
    return fail('INVALID_JSON', 'The arguments must be JSON text. Send a single JSON object.');
  }
  if (isOverByteLimit(text, limits.maxBytes)) {
    return fail(
      'ARGUMENTS_TOO_LARGE',
      `The arguments are larger than ${limits.maxBytes} bytes. Send smaller arguments.`,
    );
  }
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(
      'INVALID_JSON',
      `The arguments are not valid JSON${describePosition(error)}. Send a single JSON object.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('INVALID_ARGUMENTS', 'The arguments must be a JSON object, such as {"name": "value"}.');
  }
  const problem = inspect(value, limits.maxDepth);
  if (problem !== undefined) return problem;
  return { ok: true, value: value as Record<string, unknown> };
}

function fail(code: ToolErrorCode, message: string): ParseArgumentsOutcome {
  return { ok: false, code, message };
}

function isOverByteLimit(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return true;
  if (text.length * 3 <= maxBytes) return false;
  return Buffer.byteLength(text, 'utf8') > maxBytes;
}

/** Only the position: the engine's own message may quote the input back. */
function describePosition(error: unknown): string {
  const match = error instanceof Error ? /position (\d+)/.exec(error.message) : null;
  return match ? ` (the error is near character ${match[1]})` : '';
}

/**
 * One iterative walk: depth and dangerous keys. Paths are only worked out for the message, on failure.
 * The stack is only built when the top level holds an object (most arguments are flat).
 */
function inspect(root: object, maxDepth: number): ParseArgumentsOutcome | undefined {
  let values: object[] | undefined;
  let depths: number[] | undefined;
  let value = root;
  let depth = 1;
  for (;;) {
    if (depth > maxDepth) {
      return fail(
        'ARGUMENTS_TOO_DEEP',
        `The arguments are nested deeper than ${maxDepth} levels. Flatten them.`,
      );
    }
    const isArray = Array.isArray(value);
    for (const key in value) {
      if (!isArray && isForbiddenKey(key, value)) {
        return fail(
          'FORBIDDEN_KEY',
          `The key "${key}" at "${pathTo(root, value)}" is not allowed in arguments. Remove it and call again.`,
        );
      }
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) {
        values ??= [];
        depths ??= [];
        values.push(child);
        depths.push(depth + 1);
      }
    }
    if (values === undefined || values.length === 0) return undefined;
    value = values.pop() as object;
    depth = depths?.pop() as number;
  }
}

/** The JSON Pointer of `target` inside `root` (both from JSON.parse, so a tree, never a cycle). */
function pathTo(root: object, target: object): string {
  const stack: Array<[object, string]> = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [object, string];
    if (value === target) return path || '/';
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push([child, `${path}/${key.slice(0, 64)}`]);
    }
  }
  return '/';
}

function isForbiddenKey(key: string, owner: object): boolean {
  if (key === '__proto__') return true;
  if (key !== 'constructor') return false;
  const child = (owner as Record<string, unknown>)[key];
  return typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype');
}
