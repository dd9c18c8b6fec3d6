/**
 * Deterministic serialization of tool results (the text the model sees) and the canonical JSON
 * form used for loop-detection fingerprints.
 *
 * One walker serves both entry points. It keeps its own stack of open containers (no recursion over
 * the value), so nesting depth is bounded only by `maxDepth`, never by the JS call stack.
 */
import { DEFAULT_MAX_RESULT_DEPTH } from '../defaults.js';
import {
  describeThrown,
  internalFailure,
  type SerializeOptions,
  type SerializeOutcome,
} from './serialize-outcome.js';
import { normalizeWhitespace, UNSERIALIZABLE, Walker } from './value-walker.js';

export type { SerializeFailureReason, SerializeOptions, SerializeOutcome } from './serialize-outcome.js';

/**
 * Serializes a tool result to compact JSON text with sorted keys.
 *
 * Never throws. Failures carry a JSON-pointer path (RFC 6901 escaping; `''` is the top level; a Map
 * entry is `<entry index>/0` for its key and `<entry index>/1` for its value, a Set element is its
 * insertion index).
 */
export function serializeValue(value: unknown, options?: SerializeOptions): SerializeOutcome {
  const maxDepth = normalizeMaxDepth(options?.maxDepth);
  const fast = serializeFlat(value, maxDepth);
  if (fast !== undefined) return { ok: true, text: fast };
  const walker = new Walker(false, maxDepth);
  try {
    const text = walker.run(value);
    if (text !== undefined) return { ok: true, text };
    return walker.failure ?? internalFailure('', 'unknown failure');
  } catch (error) {
    // Only reachable for resource exhaustion (e.g. a string longer than the engine allows).
    return internalFailure(walker.currentPath(), describeThrown(error));
  }
}

/**
 * The hot path: a primitive, or a plain object whose keys are already in order and whose values are all
 * strings, booleans, null or finite numbers, is exactly what `JSON.stringify` prints. Anything else
 * (or anything that throws while looked at) returns undefined and takes the full walk.
 */
function serializeFlat(value: unknown, maxDepth: number): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (maxDepth < 1) return undefined;
  try {
    if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
    let previous = '';
    let first = true;
    for (const key in value) {
      if (!first && !(previous < key)) return undefined;
      const item = (value as Record<string, unknown>)[key];
      const type = typeof item;
      if (type === 'number') {
        if (!Number.isFinite(item)) return undefined;
      } else if (type !== 'string' && type !== 'boolean' && item !== null && item !== undefined) {
        return undefined;
      }
      previous = key;
      first = false;
    }
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * Canonical JSON for fingerprints: same rules as {@link serializeValue}, but never fails. Unserializable
 * values become the strings `"[Circular]"`, `"[Function]"`, `"[Symbol]"`, `"[TooDeep]"` or `"[Throws]"`
 * (throwing getter, toJSON or Proxy trap), and string VALUES have their whitespace normalized (trimmed,
 * runs collapsed to one space). Object keys are left as they are.
 */
export function canonicalJson(value: unknown): string {
  const flat = canonicalFlat(value);
  if (flat !== undefined) return flat;
  const walker = new Walker(true, DEFAULT_MAX_RESULT_DEPTH);
  try {
    return walker.run(value) ?? UNSERIALIZABLE;
  } catch {
    return UNSERIALIZABLE;
  }
}

/**
 * The hot path of `canonicalJson`: a plain object of strings, booleans, null and finite numbers (what most
 * tool arguments are), keys sorted here. Anything else returns undefined and takes the full walk.
 */
function canonicalFlat(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
    const keys = Object.keys(value).sort();
    let text = '{';
    for (const key of keys) {
      const item = (value as Record<string, unknown>)[key];
      let shown: string;
      switch (typeof item) {
        case 'string':
          shown = JSON.stringify(normalizeWhitespace(item));
          break;
        case 'number':
          if (!Number.isFinite(item)) return undefined;
          shown = JSON.stringify(item);
          break;
        case 'boolean':
          shown = item ? 'true' : 'false';
          break;
        case 'undefined':
          continue;
        default:
          if (item !== null) return undefined;
          shown = 'null';
      }
      text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${shown}`;
    }
    return `${text}}`;
  } catch {
    return undefined;
  }
}

function normalizeMaxDepth(maxDepth: number | undefined): number {
  if (maxDepth === undefined || Number.isNaN(maxDepth)) return DEFAULT_MAX_RESULT_DEPTH;
  return maxDepth < 0 ? 0 : Math.floor(maxDepth);
}
