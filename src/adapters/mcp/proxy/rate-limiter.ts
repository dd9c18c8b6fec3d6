import type { Store, StoreCounter } from '../../../core/store.js';
import { storeKey } from '../../../store/store-key.js';
import type { Refusal } from './call-decision.js';
import type { RateLimitsConfig, RateWindowLimits, ToolRateLimit } from './proxy-security-config.js';
import { refusalOf } from './refusal-text.js';
import { matchesPattern } from './tool-pattern.js';

/** The client of a session with no identity (stdio, or an HTTP front without keys): they share one count. */
export const ANONYMOUS_CLIENT = 'anonymous';

const WINDOWS = [
  { window: 'minute', key: 'perMinute', ms: 60_000 },
  { window: 'hour', key: 'perHour', ms: 3_600_000 },
] as const;
/** A counter outlives its window a little (clocks of two proxies differ), then the store drops it. */
const COUNTER_TTL_MS = WINDOWS[1].ms + WINDOWS[0].ms;

/** The proxy's rate limits over time, counted in the store (see `createRateLimiter`). */
export interface RateLimiter {
  /**
   * Counts one call of `tool` by `client` against every limit that applies, all or nothing; a refusal
   * that says which limit and when to try again when one is reached, or when the store cannot count.
   */
  take(tool: string, client: string | undefined): Promise<Refusal | undefined>;
}

interface Counted {
  readonly counter: StoreCounter;
  readonly tool: string | undefined;
  readonly window: 'minute' | 'hour';
  readonly per: 'client' | 'proxy';
  readonly endsAt: number;
}

/**
 * Fixed windows aligned on the clock (a minute from :00, an hour from :00): a counter per window in the
 * store, so proxies sharing a store count together. A window lets its limit through at once, so up to
 * twice a limit may pass across a window's end; a refused call is not counted. The client's counters
 * share one hash tag and are reserved in one step; a tool's counter for all clients (`per: "proxy"`) is
 * reserved after them, and theirs are given back when it is full.
 */
export function createRateLimiter(options: {
  readonly config: RateLimitsConfig;
  readonly store: Store;
  /** The clock (ms since the epoch); default `Date.now`. */
  readonly now?: () => number;
}): RateLimiter {
  const { config, store } = options;
  const now = options.now ?? Date.now;
  const toolLimitOf = (tool: string): ToolRateLimit | undefined => {
    const exact = Object.hasOwn(config.tools, tool) ? config.tools[tool] : undefined;
    if (exact !== undefined) return exact;
    for (const [pattern, limit] of Object.entries(config.tools))
      if (pattern.includes('*') && matchesPattern(pattern, tool)) return limit;
    return undefined;
  };
  return {
    async take(tool, client) {
      const who = client ?? ANONYMOUS_CLIENT;
      const at = now();
      const toolLimit = toolLimitOf(tool);
      const own: Counted[] = [];
      const shared: Counted[] = [];
      if (config.perClient !== undefined)
        own.push(
          ...counters(config.perClient, at, undefined, 'client', (window, index) =>
            storeKey(`mcp-rate:${who}`, 'all', window, index),
          ),
        );
      if (toolLimit !== undefined) {
        const into = toolLimit.per === 'client' ? own : shared;
        into.push(
          ...counters(toolLimit, at, tool, toolLimit.per, (window, index) =>
            toolLimit.per === 'client'
              ? storeKey(`mcp-rate:${who}`, 'tool', tool, window, index)
              : storeKey('mcp-rate', 'tool', tool, window, index),
          ),
        );
      }
      try {
        const first = await reserve(store, own, at);
        if (first !== undefined) return first;
        const second = await reserve(store, shared, at);
        if (second !== undefined && own.length > 0) await store.release(own.map((c) => c.counter.key));
        return second;
      } catch {
        // Limits that cannot be counted are not limits: the call waits for a store that answers.
        return refusalOf({ reason: 'rate-unavailable' });
      }
    },
  };
}

/** One counter per window the limits set, keyed by the window's number since the epoch. */
function counters(
  limits: RateWindowLimits,
  at: number,
  tool: string | undefined,
  per: 'client' | 'proxy',
  keyOf: (window: string, index: string) => string,
): Counted[] {
  const made: Counted[] = [];
  for (const { window, key, ms } of WINDOWS) {
    const limit = limits[key];
    if (limit === undefined) continue;
    const index = Math.floor(at / ms);
    made.push({
      counter: { key: keyOf(window, String(index)), limit },
      tool,
      window,
      per,
      endsAt: (index + 1) * ms,
    });
  }
  return made;
}

async function reserve(store: Store, counted: readonly Counted[], at: number): Promise<Refusal | undefined> {
  if (counted.length === 0) return undefined;
  const result = await store.reserve(
    counted.map((entry) => entry.counter),
    { ttlMs: COUNTER_TTL_MS },
  );
  if (result.ok) return undefined;
  const blocked = counted[result.blocked];
  if (blocked === undefined) return refusalOf({ reason: 'rate-unavailable' });
  return refusalOf({
    reason: 'rate-limit',
    tool: blocked.tool,
    limit: blocked.counter.limit,
    window: blocked.window,
    per: blocked.per,
    retryAfterMs: Math.max(0, blocked.endsAt - at),
  });
}
