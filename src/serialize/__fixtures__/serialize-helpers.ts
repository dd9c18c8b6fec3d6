import type { SerializeOutcome } from '../serialize-value.js';

export function textOf(outcome: SerializeOutcome): string {
  if (!outcome.ok)
    throw new Error(`expected success, got ${outcome.reason} at ${outcome.path}: ${outcome.message}`);
  return outcome.text;
}

export function failureOf(outcome: SerializeOutcome): { reason: string; path: string; message: string } {
  if (outcome.ok) throw new Error(`expected failure, got ${outcome.text}`);
  return { reason: outcome.reason, path: outcome.path, message: outcome.message };
}

/** Defines a property without triggering the `__proto__` setter. */
export function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Deep copy of a JSON value with every object's keys inserted in the order chosen by `order`. */
export function rebuild(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => rebuild(item, order));
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of order(Object.keys(source))) define(out, key, rebuild(source[key], order));
    return out;
  }
  return value;
}

/** Reference model for JSON values: a plain recursive printer with sorted keys. */
export function sortedStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const entries = Object.keys(source)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${sortedStringify(source[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export function withoutNegativeZero(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(withoutNegativeZero);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) define(out, key, withoutNegativeZero(item));
    return out;
  }
  return value;
}

export function hasWhitespaceInStrings(value: unknown): boolean {
  if (typeof value === 'string') return /\s/.test(value);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasWhitespaceInStrings);
  return false;
}

export function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** Every key-order permutation derived from a seed, applied at every level. */
export function shuffler(seed: number): (keys: string[]) => string[] {
  let state = seed >>> 0 || 1;
  return (keys) => {
    const out = [...keys];
    for (let i = out.length - 1; i > 0; i--) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      const j = state % (i + 1);
      [out[i], out[j]] = [out[j] as string, out[i] as string];
    }
    return out;
  };
}
