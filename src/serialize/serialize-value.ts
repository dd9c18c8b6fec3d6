/**
 * Deterministic serialization of tool results (the text the model sees). (The loop guard's canonical
 * form of parsed JSON is `guard/canonical-json.ts`.)
 *
 * The walker keeps its own stack of open containers (no recursion over
 * the value), so nesting depth is bounded only by `maxDepth`, never by the JS call stack.
 */
import { DEFAULT_MAX_RESULT_DEPTH } from '../core/defaults.js';
import {
  describeThrown,
  internalFailure,
  type SerializeOptions,
  type SerializeOutcome,
} from './serialize-outcome.js';
import { Walker } from './value-walker.js';

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
  const walker = new Walker(maxDepth);
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

function normalizeMaxDepth(maxDepth: number | undefined): number {
  if (maxDepth === undefined || Number.isNaN(maxDepth)) return DEFAULT_MAX_RESULT_DEPTH;
  return maxDepth < 0 ? 0 : Math.floor(maxDepth);
}
