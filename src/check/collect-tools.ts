import type { AnyTool, ToolDefinition } from '../tools/define-tool.js';
import { readField } from '../util/read-field.js';
import { describeThrown } from './preview-value.js';

/** A tool definition of any argument and result types, as a module exports it. */
// biome-ignore lint/suspicious/noExplicitAny: a module exports definitions of every argument type.
export type AnyToolDefinition = ToolDefinition<any, any>;

/** What a module may export for `toolwarden check`: tools, or definitions not yet passed to `defineTool`. */
export type CheckTarget = AnyTool | AnyToolDefinition;

export interface CollectedTools {
  /** Each tool or definition once, in the module's export order (exports are sorted by name). */
  readonly targets: readonly CheckTarget[];
  /** Where each target was found: `queryOrderStatus`, `default`, `tools[2]`, `default.getWeather`. */
  readonly exportNames: ReadonlyMap<CheckTarget, string>;
  /** Exports that cannot be looked at (a revoked Proxy, a binding not yet initialized), and why. */
  readonly unreadable: readonly UnreadableExport[];
}

export interface UnreadableExport {
  readonly name: string;
  /** What reading it threw, as one line. */
  readonly reason: string;
}

/** A tool made by `defineTool` (any copy of toolwarden): it has a name, a description and its validators. */
export function isTool(value: unknown): value is AnyTool {
  return (
    isObject(value) &&
    read(value, 'validateInput', (v) => typeof v === 'function') &&
    read(value, 'execute', (v) => typeof v === 'function') &&
    read(value, 'name', (v) => typeof v === 'string') &&
    has(value, 'description')
  );
}

/**
 * A tool definition that has not been through `defineTool`: an object with a `name` and an `execute`
 * function but no validators. The checker defines it, so a definition error is reported for that tool
 * instead of failing the whole module at import.
 */
export function isToolDefinition(value: unknown): value is AnyToolDefinition {
  return (
    isObject(value) &&
    !isTool(value) &&
    has(value, 'name') &&
    read(value, 'execute', (v) => typeof v === 'function')
  );
}

/**
 * Finds the tools a module exports: each export that is a tool or a definition, arrays of them, a tool
 * registry, and a default export that is a plain object of tools. An export that throws when looked at
 * is listed in `unreadable`; inside an export, what throws is skipped.
 */
export function collectTools(namespace: Readonly<Record<string, unknown>>): CollectedTools {
  const targets: CheckTarget[] = [];
  const exportNames = new Map<CheckTarget, string>();
  const unreadable: UnreadableExport[] = [];
  const add = (value: unknown, where: string): boolean => {
    if (!isTool(value) && !isToolDefinition(value)) return false;
    if (!exportNames.has(value)) {
      targets.push(value);
      exportNames.set(value, where);
    }
    return true;
  };
  // Node sorts a module namespace's keys; other loaders (a bundler, a test runner) may not.
  for (const key of Object.keys(namespace).sort()) {
    try {
      const value: unknown = namespace[key];
      if (isObject(value) || typeof value === 'function') {
        // Look at it the ways collecting does: a revoked Proxy throws on each, and is reported here.
        Array.isArray(value);
        Reflect.getPrototypeOf(value);
      }
      if (add(value, key)) continue;
      const list = listOf(value);
      if (list !== undefined) {
        list.forEach((item, i) => {
          add(item, `${key}[${i}]`);
        });
      } else if (key === 'default' && isPlainObject(value)) {
        for (const inner of Object.keys(value)) add(readField(value, inner), `default.${inner}`);
      }
    } catch (error) {
      unreadable.push({ name: key, reason: describeThrown(error) });
    }
  }
  return { targets, exportNames, unreadable };
}

/** An array, or a tool registry's list. */
function listOf(value: unknown): readonly unknown[] | undefined {
  if (!isObject(value)) return undefined;
  try {
    if (Array.isArray(value)) return value;
    if (!read(value, 'kind', (k) => k === 'tool-registry')) return undefined;
    const list = (value as { list?: () => unknown }).list?.();
    return Array.isArray(list) ? list : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  try {
    if (Array.isArray(value)) return false;
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false;
  }
}

function has(value: object, key: string): boolean {
  try {
    return key in value;
  } catch {
    return false;
  }
}

function read(value: object, key: string, test: (v: unknown) => boolean): boolean {
  try {
    return key in value && test((value as Record<string, unknown>)[key]);
  } catch {
    return false;
  }
}
