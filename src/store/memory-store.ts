import type {
  ReserveResult,
  Store,
  StoreCounter,
  StoreEntry,
  StoreReserveOptions,
  StoreSetOptions,
  StoreSetResult,
} from '../core/store.js';
import {
  checkAlso,
  checkCounters,
  checkKey,
  checkReserve,
  checkTtl,
  checkVersion,
  decodeStoreValue,
  encodeStoreValue,
} from '../core/store-value.js';
import { checkDeadline, refuseLateWrite } from './store-deadline.js';

interface Kept {
  readonly text: string;
  readonly version: number;
  /** `Date.now()` at which it expires; undefined: never. */
  readonly expiresAt: number | undefined;
}

/** Writes between two sweeps of expired entries and counters: a long-running process's store stays bounded. */
const SWEEP_EVERY_WRITES = 1_000;

/**
 * The default store: one process, nothing persisted. Values are copied in and out as JSON text, exactly as
 * the durable adapters keep them, so what works here works there. Expired entries are dropped when read.
 */
export class MemoryStore implements Store {
  readonly #entries = new Map<string, Kept>();
  readonly #counters = new Map<string, { count: number; expiresAt: number | undefined }>();
  readonly #now: () => number;
  #writes = 0;

  constructor(
    options: {
      /** Clock for expiry, in milliseconds (default `Date.now`). */
      readonly now?: () => number;
    } = {},
  ) {
    this.#now = options.now ?? Date.now;
  }

  async get(key: string): Promise<StoreEntry | undefined> {
    checkKey(key);
    return this.#entry(key, 'get');
  }

  async set(key: string, value: unknown, options: StoreSetOptions = {}): Promise<StoreSetResult> {
    checkKey(key);
    checkVersion(options.ifVersion);
    checkTtl(options.ttlMs);
    checkReserve(options.reserve);
    checkAlso(options.also, key);
    checkDeadline(options.deadline);
    const text = encodeStoreValue(value);
    refuseLateWrite(options.deadline, this.#now(), 'set');
    const { also } = options;
    const alsoText = also === undefined ? undefined : encodeStoreValue(also.value);
    const kept = this.#live(key);
    const version = kept?.version ?? 0;
    const refused = (blocked: number | undefined): StoreSetResult => ({
      ok: false,
      current: kept === undefined ? undefined : { value: decodeStoreValue(kept.text, 'set'), version },
      ...(blocked === undefined ? {} : { blocked }),
      ...(also === undefined ? {} : { alsoCurrent: this.#entry(also.key, 'set') }),
    });
    if (options.ifVersion !== undefined && options.ifVersion !== version) return refused(undefined);
    const reserve = options.reserve;
    if (reserve !== undefined) {
      const reserved = this.#reserveNow(reserve.counters, reserve.ttlMs);
      if (!reserved.ok) return refused(reserved.blocked);
    }
    this.#put(key, text, version + 1, options.ttlMs);
    if (also !== undefined && alsoText !== undefined) {
      this.#put(also.key, alsoText, (this.#live(also.key)?.version ?? 0) + 1, also.ttlMs);
    }
    this.#wrote();
    return { ok: true, version: version + 1 };
  }

  #put(key: string, text: string, version: number, ttlMs: number | undefined): void {
    const expiresAt = ttlMs === undefined ? undefined : this.#now() + ttlMs;
    this.#entries.set(key, { text, version, expiresAt });
  }

  #entry(key: string, operation: string): StoreEntry | undefined {
    const kept = this.#live(key);
    return kept === undefined
      ? undefined
      : { value: decodeStoreValue(kept.text, operation), version: kept.version };
  }

  async delete(key: string, options: { readonly ifVersion?: number } = {}): Promise<boolean> {
    checkKey(key);
    checkVersion(options.ifVersion);
    const kept = this.#live(key);
    if (kept === undefined) return false;
    if (options.ifVersion !== undefined && options.ifVersion !== kept.version) return false;
    this.#entries.delete(key);
    return true;
  }

  async reserve(
    counters: readonly StoreCounter[],
    options: StoreReserveOptions = {},
  ): Promise<ReserveResult> {
    checkCounters(counters);
    checkTtl(options.ttlMs);
    checkDeadline(options.deadline);
    refuseLateWrite(options.deadline, this.#now(), 'reserve');
    return this.#reserveNow(counters, options.ttlMs);
  }

  /** `reserve` after its checks, in one synchronous step (atomic within the process). */
  #reserveNow(counters: readonly StoreCounter[], ttlMs: number | undefined): ReserveResult {
    const counts = counters.map((counter) => this.#count(counter.key));
    const blocked = counters.findIndex((counter, index) => (counts[index] ?? 0) + 1 > counter.limit);
    if (blocked !== -1) return { ok: false, blocked, counts };
    const now = this.#now();
    for (const counter of counters) {
      const existing = this.#counters.get(counter.key);
      const expiresAt = existing?.expiresAt ?? (ttlMs === undefined ? undefined : now + ttlMs);
      this.#counters.set(counter.key, { count: this.#count(counter.key) + 1, expiresAt });
    }
    this.#wrote();
    return { ok: true, counts: counts.map((count) => count + 1) };
  }

  async release(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      checkKey(key);
      const count = this.#count(key);
      const existing = this.#counters.get(key);
      if (existing !== undefined && count > 0) this.#counters.set(key, { ...existing, count: count - 1 });
    }
  }

  /** Entries and counters held, expired ones not yet dropped included. */
  get size(): number {
    return this.#entries.size + this.#counters.size;
  }

  /** Every `SWEEP_EVERY_WRITES` writes, drops what has expired (otherwise only dropped when read). */
  #wrote(): void {
    if (++this.#writes % SWEEP_EVERY_WRITES !== 0) return;
    const now = this.#now();
    for (const [key, kept] of this.#entries)
      if (kept.expiresAt !== undefined && kept.expiresAt <= now) this.#entries.delete(key);
    for (const [key, counter] of this.#counters) {
      if (counter.expiresAt !== undefined && counter.expiresAt <= now) this.#counters.delete(key);
    }
  }

  #live(key: string): Kept | undefined {
    const kept = this.#entries.get(key);
    if (kept?.expiresAt !== undefined && kept.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return kept;
  }

  #count(key: string): number {
    const counter = this.#counters.get(key);
    if (counter === undefined) return 0;
    if (counter.expiresAt !== undefined && counter.expiresAt <= this.#now()) {
      this.#counters.delete(key);
      return 0;
    }
    return counter.count;
  }
}
