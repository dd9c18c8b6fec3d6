// Rate limits over time on a memory store and a clock of the test's own: windows, scopes, two limiters
// sharing one store, and a store that cannot count.
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../core/store.js';
import { MemoryStore } from '../../../store/memory-store.js';
import type { RateLimitsConfig } from './proxy-security-config.js';
import { createRateLimiter } from './rate-limiter.js';

const MINUTE = 60_000;
/** 10:00:15 on some day: 45 s before the minute ends. */
const START = Date.UTC(2026, 0, 5, 10, 0, 15);

function limiters(config: RateLimitsConfig, count = 1, store: Store = new MemoryStore()) {
  const clock = { now: START };
  const made = Array.from({ length: count }, () =>
    createRateLimiter({ config, store, now: () => clock.now }),
  );
  return { clock, limiters: made };
}

const texts = async (results: Promise<{ text: string } | undefined>[]) =>
  (await Promise.all(results)).map((refusal) => refusal?.text ?? 'ok');

describe('createRateLimiter', () => {
  it("refuses a client's call past its limit per minute, says when to retry, and counts again in the next minute", async () => {
    const {
      clock,
      limiters: [limiter],
    } = limiters({ perClient: { perMinute: 2, perHour: undefined }, tools: {} });
    if (limiter === undefined) throw new Error('no limiter');
    expect(await texts([limiter.take('a', 'alice'), limiter.take('b', 'alice')])).toEqual(['ok', 'ok']);
    const refused = await limiter.take('a', 'alice');
    expect(refused).toEqual({
      kind: 'refuse',
      code: 'RATE_LIMITED',
      text: 'RATE_LIMITED: The limit of 2 tool calls per minute for this client is reached; try again in 45 s.',
      retryAfterMs: 45_000,
    });
    // Another client has its own count.
    expect(await limiter.take('a', 'bob')).toBeUndefined();
    clock.now += 45_000;
    expect(await limiter.take('a', 'alice')).toBeUndefined();
  });

  it('counts the hour across minutes, and names the window that is full', async () => {
    const {
      clock,
      limiters: [limiter],
    } = limiters({ perClient: { perMinute: 5, perHour: 3 }, tools: {} });
    if (limiter === undefined) throw new Error('no limiter');
    for (let minute = 0; minute < 3; minute++) {
      expect(await limiter.take('a', 'alice')).toBeUndefined();
      clock.now += MINUTE;
    }
    const refused = await limiter.take('a', 'alice');
    expect(refused?.text).toBe(
      'RATE_LIMITED: The limit of 3 tool calls per hour for this client is reached; try again in 3405 s.',
    );
  });

  it('a tool limit per client, by name or pattern, and one for all clients together', async () => {
    const config: RateLimitsConfig = {
      perClient: undefined,
      tools: {
        'gh.*': { perMinute: 1, perHour: undefined, per: 'client' },
        'gh.search': { perMinute: 2, perHour: undefined, per: 'proxy' },
      },
    };
    const {
      limiters: [limiter],
    } = limiters(config);
    if (limiter === undefined) throw new Error('no limiter');
    // Each tool the pattern matches counts apart, per client.
    expect(await texts([limiter.take('gh.create', 'alice'), limiter.take('gh.echo', 'alice')])).toEqual([
      'ok',
      'ok',
    ]);
    expect((await limiter.take('gh.create', 'alice'))?.text).toBe(
      'RATE_LIMITED: The limit of 1 calls to gh.create per minute for this client is reached; try again in 45 s.',
    );
    expect(await limiter.take('gh.create', 'bob')).toBeUndefined();
    // The exact name wins over the pattern: two calls a minute, all clients together.
    expect(await texts([limiter.take('gh.search', 'alice'), limiter.take('gh.search', 'bob')])).toEqual([
      'ok',
      'ok',
    ]);
    expect((await limiter.take('gh.search', 'carol'))?.text).toBe(
      'RATE_LIMITED: The limit of 2 calls to gh.search per minute for all clients together is reached; try again in 45 s.',
    );
    // An unlimited tool is never refused.
    expect(await limiter.take('fs.read', 'alice')).toBeUndefined();
  });

  it("gives the client's counts back when the limit for all clients is full", async () => {
    const config: RateLimitsConfig = {
      perClient: { perMinute: 2, perHour: undefined },
      tools: { slow: { perMinute: 1, perHour: undefined, per: 'proxy' } },
    };
    const {
      limiters: [limiter],
    } = limiters(config);
    if (limiter === undefined) throw new Error('no limiter');
    expect(await limiter.take('slow', 'bob')).toBeUndefined();
    expect((await limiter.take('slow', 'alice'))?.code).toBe('RATE_LIMITED');
    // Alice's refused call did not spend her minute: two more calls pass.
    expect(await texts([limiter.take('other', 'alice'), limiter.take('other', 'alice')])).toEqual([
      'ok',
      'ok',
    ]);
  });

  it('two limiters (two proxies) on one store act as one; clients without an id share one count', async () => {
    const {
      limiters: [first, second],
    } = limiters({ perClient: { perMinute: 3, perHour: undefined }, tools: {} }, 2);
    if (first === undefined || second === undefined) throw new Error('no limiters');
    const results = await texts([
      first.take('a', 'alice'),
      second.take('a', 'alice'),
      first.take('a', 'alice'),
      second.take('a', 'alice'),
    ]);
    expect(results.filter((text) => text === 'ok')).toHaveLength(3);
    expect(
      await texts([first.take('a', undefined), second.take('a', undefined), first.take('a', undefined)]),
    ).toEqual(['ok', 'ok', 'ok']);
    expect((await second.take('a', undefined))?.code).toBe('RATE_LIMITED');
  });

  it('refuses the call when the store cannot count (a limit that cannot be checked is not waived)', async () => {
    const down = new MemoryStore();
    down.reserve = () => Promise.reject(new Error('connection refused'));
    const {
      limiters: [limiter],
    } = limiters({ perClient: { perMinute: 3, perHour: undefined }, tools: {} }, 1, down);
    expect(await limiter?.take('a', 'alice')).toEqual({
      kind: 'refuse',
      code: 'TOOL_UNAVAILABLE',
      text: 'TOOL_UNAVAILABLE: The rate limits could not be checked (their store is not reachable); the call was not sent. Try again later.',
    });
  });
});
