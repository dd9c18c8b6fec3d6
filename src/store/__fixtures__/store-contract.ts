import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../core/errors/store-error.js';
import type { Store } from '../../core/store.js';
import { storeKey } from '../store-key.js';

/** One adapter under the contract: a store, and what the suite needs to look behind it. */
export interface StoreHarness {
  readonly store: Store;
  /** A second store over the same data, as another process (or this one after a restart) opens it. */
  readonly reopen?: () => Promise<Store>;
  /** Writes text that is not JSON under `key`, behind the adapter's back. */
  readonly corrupt?: (key: string) => Promise<void>;
  /** Removes what the suite wrote and closes what the harness opened. */
  readonly cleanup: () => Promise<void>;
  /**
   * Lets `ms` pass for the store's TTLs: by its injected clock where it takes one; without it, the suite
   * waits in real time (a server keeps its own clock).
   */
  readonly elapse?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A TTL short enough to wait out, and the wait. On a server's own clock it is a second, not 40 ms: a loaded
 * CI machine once took longer than 40 ms between a write and the read that expects it still there.
 */
function briefTtl(harness: StoreHarness): { readonly ttlMs: number; readonly wait: () => Promise<void> } {
  const { elapse } = harness;
  if (elapse) return { ttlMs: 40, wait: () => elapse(120) };
  return { ttlMs: 1_000, wait: () => sleep(1_300) };
}

/**
 * The one contract every store adapter passes: values, versions and compare-and-set under concurrency,
 * bounded counters, TTLs, delete, hostile values and keys, and a restart. Each test writes under a session
 * of its own, so adapters over a shared server (Redis) need only a key prefix.
 */
export function describeStoreContract(
  name: string,
  open: () => Promise<StoreHarness>,
  { durable }: { readonly durable: boolean },
): void {
  describe(`store contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    beforeAll(async () => {
      harness = await open();
      store = harness.store;
    });
    afterAll(async () => harness?.cleanup());
    const key = (what: string) => storeKey(`contract-${randomUUID()}`, what);

    it('hands back a copy of what was written, with a version that grows by one per write', async () => {
      const k = key('value');
      expect(await store.get(k)).toBeUndefined();
      const value = { a: [1, 'two', null, true], nested: { x: 1.5 } };
      expect(await store.set(k, value)).toEqual({ ok: true, version: 1 });
      value.nested.x = 99;
      expect(await store.get(k)).toEqual({
        value: { a: [1, 'two', null, true], nested: { x: 1.5 } },
        version: 1,
      });
      expect(await store.set(k, 'second')).toEqual({ ok: true, version: 2 });
      expect(await store.get(k)).toEqual({ value: 'second', version: 2 });
    });

    it('writes with ifVersion only at that version, and hands back the current entry otherwise', async () => {
      const k = key('cas');
      expect(await store.set(k, 'first', { ifVersion: 0 })).toEqual({ ok: true, version: 1 });
      expect(await store.set(k, 'again', { ifVersion: 0 })).toEqual({
        ok: false,
        current: { value: 'first', version: 1 },
      });
      expect(await store.set(k, 'stale', { ifVersion: 7 })).toEqual({
        ok: false,
        current: { value: 'first', version: 1 },
      });
      expect(await store.set(key('absent'), 'x', { ifVersion: 3 })).toEqual({
        ok: false,
        current: undefined,
      });
      expect(await store.set(k, 'next', { ifVersion: 1 })).toEqual({ ok: true, version: 2 });
      expect(await store.get(k)).toEqual({ value: 'next', version: 2 });
    });

    it('loses no update when 25 writers increment one value by compare-and-set at once', async () => {
      const k = key('race');
      await store.set(k, { n: 0 });
      const writers = Array.from({ length: 25 }, async () => {
        for (;;) {
          const entry = await store.get(k);
          const n = (entry?.value as { n: number } | undefined)?.n ?? 0;
          const written = await store.set(k, { n: n + 1 }, { ifVersion: entry?.version ?? 0 });
          if (written.ok) return;
        }
      });
      await Promise.all(writers);
      expect(await store.get(k)).toEqual({ value: { n: 25 }, version: 26 });
    });

    it('lets exactly one of 20 concurrent first writers (ifVersion 0) win', async () => {
      const k = key('first-wins');
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.set(k, { writer: i }, { ifVersion: 0 })),
      );
      const winners = results.filter((result) => result.ok);
      expect(winners).toHaveLength(1);
      const winner = (await store.get(k))?.value as { writer: number };
      for (const result of results) {
        if (!result.ok) expect(result.current?.value).toEqual(winner);
      }
    });

    it('deletes, and with ifVersion only at that version', async () => {
      const k = key('delete');
      expect(await store.delete(k)).toBe(false);
      await store.set(k, 1);
      await store.set(k, 2);
      expect(await store.delete(k, { ifVersion: 1 })).toBe(false);
      expect(await store.get(k)).toEqual({ value: 2, version: 2 });
      expect(await store.delete(k, { ifVersion: 2 })).toBe(true);
      expect(await store.get(k)).toBeUndefined();
      expect(await store.set(k, 'again', { ifVersion: 0 })).toEqual({ ok: true, version: 1 });
    });

    it('forgets an entry (and an also entry) after its TTL, and a later write without one keeps it', async () => {
      const short = key('ttl');
      const kept = key('ttl-cleared');
      const alsoShort = key('ttl-also');
      const { ttlMs, wait } = briefTtl(harness);
      await store.set(short, 'brief', { ttlMs });
      await store.set(kept, 'brief', { ttlMs, also: { key: alsoShort, value: 'brief', ttlMs } });
      await store.set(kept, 'kept', { ifVersion: 1 });
      expect((await store.get(short))?.value).toBe('brief');
      expect((await store.get(alsoShort))?.value).toBe('brief');
      await wait();
      expect(await store.get(short)).toBeUndefined();
      expect(await store.get(alsoShort)).toBeUndefined();
      expect(await store.set(short, 'new', { ifVersion: 0 })).toEqual({ ok: true, version: 1 });
      expect(await store.get(kept)).toEqual({ value: 'kept', version: 2 });
    });

    it('reserves exactly 40 of 100 concurrent calls against a limit of 40', async () => {
      const counter = { key: key('count'), limit: 40 };
      const results = await Promise.all(Array.from({ length: 100 }, () => store.reserve([counter])));
      expect(results.filter((result) => result.ok)).toHaveLength(40);
      const refused = results.find((result) => !result.ok);
      expect(refused).toEqual({ ok: false, blocked: 0, counts: [40] });
    });

    it('reserves all counters or none, and release gives one back, never below zero', async () => {
      const turn = { key: key('turn'), limit: 5 };
      const session = { key: key('session'), limit: 2 };
      expect(await store.reserve([turn, session])).toEqual({ ok: true, counts: [1, 1] });
      expect(await store.reserve([turn, session])).toEqual({ ok: true, counts: [2, 2] });
      expect(await store.reserve([turn, session])).toEqual({ ok: false, blocked: 1, counts: [2, 2] });
      await store.release([session.key]);
      expect(await store.reserve([turn, session])).toEqual({ ok: true, counts: [3, 2] });
      const fresh = key('never-reserved');
      await store.release([fresh, fresh]);
      expect(await store.reserve([{ key: fresh, limit: 1 }])).toEqual({ ok: true, counts: [1] });
      expect(await store.reserve([{ key: key('zero'), limit: 0 }])).toEqual({
        ok: false,
        blocked: 0,
        counts: [0],
      });
    });

    it('a counted write writes and counts, or neither: a version conflict counts nothing, a full counter writes nothing', async () => {
      const counter = { key: key('counted'), limit: 2 };
      const reserve = { counters: [counter], ttlMs: 60_000 };
      const first = key('claim-1');
      expect(await store.set(first, 'claimed', { ifVersion: 0, reserve })).toEqual({ ok: true, version: 1 });
      expect(await store.set(first, 'again', { ifVersion: 0, reserve })).toEqual({
        ok: false,
        current: { value: 'claimed', version: 1 },
      });
      expect(await store.set(key('claim-2'), 'claimed', { ifVersion: 0, reserve })).toEqual({
        ok: true,
        version: 1,
      });
      const third = key('claim-3');
      expect(await store.set(third, 'claimed', { ifVersion: 0, reserve })).toEqual({
        ok: false,
        current: undefined,
        blocked: 0,
      });
      expect(await store.get(third)).toBeUndefined();
      expect(await store.reserve([{ ...counter, limit: 3 }])).toEqual({ ok: true, counts: [3] });
      await expect(store.set(third, 'x', { reserve: { counters: [] } })).rejects.toThrow(TypeError);
    });

    it('a write or a reservation that reaches the store at or after its deadline writes and counts nothing', async () => {
      const k = key('fenced');
      const latest = key('fenced-latest');
      const counter = { key: key('fenced-count'), limit: 5 };
      const late = async (call: Promise<unknown>, operation: string) => {
        const error = await call.then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(StoreError.isInstance(error), operation).toBe(true);
        expect(error).toMatchObject({ reason: 'unavailable', operation });
      };
      const past = Date.now() - 1;
      await late(
        store.set(k, 'late', {
          ifVersion: 0,
          deadline: past,
          reserve: { counters: [counter] },
          also: { key: latest, value: 'late' },
        }),
        'set',
      );
      await late(store.reserve([counter], { deadline: past }), 'reserve');
      expect(await store.get(k)).toBeUndefined();
      expect(await store.get(latest)).toBeUndefined();
      const future = Date.now() + 60_000;
      expect(await store.reserve([counter], { deadline: future })).toEqual({ ok: true, counts: [1] });
      expect(
        await store.set(k, 'in time', { ifVersion: 0, deadline: future, reserve: { counters: [counter] } }),
      ).toEqual({ ok: true, version: 1 });
      expect(await store.reserve([counter])).toEqual({ ok: true, counts: [3] });
      for (const deadline of [-1, 1.5, Number.NaN, '1' as never]) {
        await expect(store.set(k, 'x', { deadline })).rejects.toThrow(TypeError);
        await expect(store.reserve([counter], { deadline })).rejects.toThrow(TypeError);
      }
      expect(await store.get(k)).toEqual({ value: 'in time', version: 1 });
    });

    it('writes an also entry with the entry or not at all, and a refused write hands it back', async () => {
      const k = key('also-entry');
      const latest = key('also-latest');
      const also = (value: unknown) => ({ key: latest, value, ttlMs: 60_000 });
      expect(await store.set(k, 'claimed', { ifVersion: 0, also: also({ claim: 1 }) })).toEqual({
        ok: true,
        version: 1,
      });
      expect(await store.get(latest)).toEqual({ value: { claim: 1 }, version: 1 });
      const claimed = { value: 'claimed', version: 1 };
      expect(await store.set(k, 'again', { ifVersion: 0, also: also({ claim: 2 }) })).toEqual({
        ok: false,
        current: claimed,
        alsoCurrent: { value: { claim: 1 }, version: 1 },
      });
      // Written whatever it holds: its version goes up by one.
      expect(
        await store.set(key('also-other'), 'claimed', { ifVersion: 0, also: also({ claim: 3 }) }),
      ).toEqual({
        ok: true,
        version: 1,
      });
      const third = { value: { claim: 3 }, version: 2 };
      expect(await store.get(latest)).toEqual(third);
      const absent = key('also-absent');
      const refused = await store.set(k, 'stale', { ifVersion: 5, also: { key: absent, value: 1 } });
      expect(refused).toEqual({ ok: false, current: claimed });
      expect(refused).toHaveProperty('alsoCurrent', undefined);
      expect(await store.get(absent)).toBeUndefined();
      const reserve = { counters: [{ key: key('also-count'), limit: 0 }] };
      expect(await store.set(key('also-blocked'), 'x', { ifVersion: 0, reserve, also: also('no') })).toEqual({
        ok: false,
        current: undefined,
        blocked: 0,
        alsoCurrent: third,
      });
      expect(await store.get(latest)).toEqual(third);
      await expect(store.set(k, 'x', { also: { key: k, value: 1 } })).rejects.toThrow(TypeError);
      await expect(store.set(k, 'x', { also: { key: latest, value: undefined } })).rejects.toThrow(TypeError);
      await expect(store.set(k, 'x', { also: { key: latest, value: 1, ttlMs: 0 } })).rejects.toThrow(
        TypeError,
      );
      expect(await store.get(latest)).toEqual(third);
    });

    it('of 20 concurrent first writes of distinct keys with one also entry, each writes it once', async () => {
      const latest = key('also-race');
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.set(key(`also-race-${i}`), i, { ifVersion: 0, also: { key: latest, value: i } }),
        ),
      );
      expect(results.every((result) => result.ok)).toBe(true);
      expect((await store.get(latest))?.version).toBe(20);
    });

    it('of 100 concurrent counted writes of distinct keys against a limit of 40, exactly 40 are written', async () => {
      const reserve = { counters: [{ key: key('counted-race'), limit: 40 }] };
      const keys = Array.from({ length: 100 }, (_, i) => key(`counted-race-${i}`));
      const results = await Promise.all(keys.map((k) => store.set(k, 'claimed', { ifVersion: 0, reserve })));
      expect(results.filter((result) => result.ok)).toHaveLength(40);
      const written = await Promise.all(keys.map((k) => store.get(k)));
      expect(written.filter((entry) => entry !== undefined)).toHaveLength(40);
    });

    it('expires a counter after the TTL its first reservation set', async () => {
      const counter = { key: key('counter-ttl'), limit: 1 };
      const { ttlMs, wait } = briefTtl(harness);
      expect((await store.reserve([counter], { ttlMs })).ok).toBe(true);
      expect((await store.reserve([counter], { ttlMs })).ok).toBe(false);
      await wait();
      expect(await store.reserve([counter], { ttlMs })).toEqual({ ok: true, counts: [1] });
    });

    it('keeps hostile values as plain data: __proto__ keys, a 1 MiB string, deep nesting, odd text', async () => {
      const k = key('hostile');
      const hostile = JSON.parse(
        '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"toString":"x"}',
      );
      await store.set(k, hostile);
      const back = (await store.get(k))?.value as Record<string, unknown>;
      expect(Object.keys(back)).toEqual(['__proto__', 'constructor', 'toString']);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const big = 'x'.repeat(1024 * 1024);
      await store.set(k, big);
      expect((await store.get(k))?.value).toBe(big);
      let deep: unknown = 'bottom';
      for (let i = 0; i < 500; i++) deep = [deep];
      await store.set(k, deep);
      expect(await store.get(k)).toEqual({ value: deep, version: 3 });
      const odd = 'nul \u0000 lone \ud800 emoji 🧪 newline \n quote " backslash \\ {braces}';
      await store.set(k, odd);
      expect((await store.get(k))?.value).toBe(odd);
    });

    it('refuses values JSON cannot hold and bad keys with a TypeError, writing nothing', async () => {
      const k = key('refused');
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      for (const bad of [undefined, () => 1, 10n, cycle]) {
        await expect(store.set(k, bad)).rejects.toThrow(TypeError);
      }
      expect(await store.get(k)).toBeUndefined();
      for (const badKey of ['', 'k'.repeat(1025), 42 as unknown as string]) {
        await expect(store.get(badKey)).rejects.toThrow(TypeError);
      }
      await expect(store.set(k, 1, { ifVersion: -1 })).rejects.toThrow(TypeError);
      await expect(store.set(k, 1, { ttlMs: 0 })).rejects.toThrow(TypeError);
      await expect(store.reserve([])).rejects.toThrow(TypeError);
      await expect(store.reserve([{ key: k, limit: 1.5 }])).rejects.toThrow(TypeError);
      await expect(
        store.reserve([
          { key: k, limit: 1 },
          { key: k, limit: 1 },
        ]),
      ).rejects.toThrow(TypeError);
    });

    it('keeps keys of sessions apart, whatever their ids hold', async () => {
      const a = storeKey('a}:{b', 'guard');
      const b = storeKey('a', 'b}:guard');
      expect(a).not.toBe(b);
      await store.set(a, 'a');
      await store.set(b, 'b');
      expect((await store.get(a))?.value).toBe('a');
      expect((await store.get(b))?.value).toBe('b');
      await store.delete(a);
      await store.delete(b);
    });

    if (durable) {
      it('reports a stored value that is not JSON as StoreError (corrupt), never a raw SyntaxError', async () => {
        if (harness.corrupt === undefined)
          throw new Error(`the ${name} harness must be able to corrupt a value`);
        const k = key('corrupt');
        await harness.corrupt(k);
        const error = await store.get(k).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(StoreError.isInstance(error)).toBe(true);
        expect((error as StoreError).reason).toBe('corrupt');
      });
    }

    if (durable) {
      it('keeps entries, versions and counters across a restart', async () => {
        if (harness.reopen === undefined) throw new Error(`the ${name} harness must be able to reopen`);
        const k = key('restart');
        const counter = { key: key('restart-count'), limit: 2 };
        await store.set(k, { kept: true });
        await store.reserve([counter]);
        const second = await harness.reopen();
        try {
          expect(await second.get(k)).toEqual({ value: { kept: true }, version: 1 });
          expect(await second.set(k, 'moved on', { ifVersion: 1 })).toEqual({ ok: true, version: 2 });
          expect(await second.reserve([counter])).toEqual({ ok: true, counts: [2] });
          expect((await store.reserve([counter])).ok).toBe(false);
        } finally {
          await second.close?.();
        }
      });
    }
  });
}
