import { StoreError } from './errors/store-error.js';

/**
 * A value as adapters keep it: its JSON text. A value JSON cannot hold (undefined, a function, a BigInt, a
 * cycle) is refused with a `TypeError` before anything is written: a caller's defect, not an outage.
 */
export function encodeStoreValue(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`A store value must be JSON: ${(error as Error).message}`, { cause: error });
  }
  if (text === undefined) throw new TypeError('A store value must be JSON, got undefined or a function');
  return text;
}

/** The value back from its text; text that is not JSON is a `StoreError` (`corrupt`), never a raw SyntaxError. */
export function decodeStoreValue(text: string, operation: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StoreError({
      reason: 'corrupt',
      operation,
      message: 'the stored value is not JSON',
      cause: error,
    });
  }
}

/** Checks what a caller passes to a store call, so every adapter refuses the same bad input the same way. */
export function checkKey(key: unknown): asserts key is string {
  if (typeof key !== 'string' || key.length === 0)
    throw new TypeError('A store key must be a non-empty string');
  if (key.length > 1024) throw new TypeError('A store key must be at most 1024 characters (see storeKey)');
}

export function checkVersion(version: unknown): asserts version is number | undefined {
  if (version !== undefined && (!Number.isSafeInteger(version) || (version as number) < 0)) {
    throw new TypeError('ifVersion must be a whole number of 0 or more');
  }
}

export function checkTtl(ttlMs: unknown): asserts ttlMs is number | undefined {
  if (ttlMs !== undefined && (!Number.isSafeInteger(ttlMs) || (ttlMs as number) < 1)) {
    throw new TypeError('ttlMs must be a whole number of milliseconds, 1 or more');
  }
}

export function checkCounters(
  counters: unknown,
): asserts counters is readonly { key: string; limit: number }[] {
  if (!Array.isArray(counters) || counters.length === 0 || counters.length > 32) {
    throw new TypeError('reserve takes 1 to 32 counters');
  }
  const seen = new Set<string>();
  for (const counter of counters as unknown[]) {
    const { key, limit } = (counter ?? {}) as { key?: unknown; limit?: unknown };
    checkKey(key);
    if (seen.has(key)) throw new TypeError('reserve takes each counter key once');
    seen.add(key);
    if (!Number.isSafeInteger(limit) || (limit as number) < 0) {
      throw new TypeError('a counter limit must be a whole number of 0 or more');
    }
  }
}

/** The `reserve` option of a counted `set`: its counters and TTL, checked as `reserve` checks them. */
export function checkReserve(reserve: unknown): void {
  if (reserve === undefined) return;
  if (typeof reserve !== 'object' || reserve === null)
    throw new TypeError('set: reserve must be { counters, ttlMs? }');
  const { counters, ttlMs } = reserve as { counters?: unknown; ttlMs?: unknown };
  checkCounters(counters);
  checkTtl(ttlMs);
}

/** The `also` option of a `set`: a valid key other than the entry's own, and a TTL as `set` takes it. */
export function checkAlso(also: unknown, key: string): void {
  if (also === undefined) return;
  if (typeof also !== 'object' || also === null)
    throw new TypeError('set: also must be { key, value, ttlMs? }');
  const { key: alsoKey, ttlMs } = also as { key?: unknown; ttlMs?: unknown };
  checkKey(alsoKey);
  if (alsoKey === key) throw new TypeError('set: also must name another key than the entry written');
  checkTtl(ttlMs);
}
