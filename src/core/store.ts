/**
 * The port for everything toolwarden keeps between calls: run states (for resume), the loop guard's
 * memory per session, call counters, idempotency records and pending approvals. Small on purpose: a
 * versioned value per key (compare-and-set), bounded counters reserved all-or-nothing, TTLs, delete.
 *
 * Values are JSON: an adapter stores `JSON.stringify(value)` and hands back a parsed copy, never the object
 * it was given. Keys are built by `storeKey` (`tw:{<session>}:<what>`): every key of one multi-key call
 * (`reserve`) shares the session's hash tag, so the same scripts run on Redis Cluster.
 *
 * Adapters: `MemoryStore` (the default, one process), `toolwarden/sqlite` (one machine, durable),
 * `toolwarden/redis` and `toolwarden/postgres` (shared). Every adapter passes the one contract suite (`src/store/store-contract.ts`).
 * A failure to reach the backing store rejects with `StoreError` (`reason: 'unavailable'`).
 */
export interface Store {
  /** The entry under `key`; undefined when there is none or it has expired. */
  get(key: string): Promise<StoreEntry | undefined>;
  /**
   * Writes `value` under `key`. With `ifVersion`, only when the entry's version is that one (`0`: only
   * when there is no entry): otherwise nothing is written and the current entry comes back. The new
   * version is the old one plus 1 (a new entry has version 1). `ttlMs` sets when the entry expires
   * (counted from this write); without it the entry does not expire. With `reserve`, the write also
   * counts: it happens only when every counter can take 1 more within its limit, and then the counters
   * take it in the same atomic step (a write that claims a call and counts it against its limits in one
   * round trip); otherwise nothing is written or counted, and `blocked` names the counter. With `also`,
   * a second entry is written in the same atomic step, only when this one is (whatever that entry holds:
   * its version goes up by 1), and a refused write hands that entry back as it is (`alsoCurrent`): a
   * write that claims a call and marks it the latest of its scope, or finds both, in one round trip.
   * With `deadline`, nothing is written or counted when the write reaches the store at or after it.
   */
  set(key: string, value: unknown, options?: StoreSetOptions): Promise<StoreSetResult>;
  /** Removes the entry (with `ifVersion`, only at that version). True when an entry was removed. */
  delete(key: string, options?: { readonly ifVersion?: number }): Promise<boolean>;
  /**
   * Adds 1 to every counter when each stays within its `limit`; when one would pass it, adds nothing and
   * says which (`blocked`, its index). All or nothing, atomic across processes: of any number of
   * concurrent reservations against a limit of 40, exactly 40 succeed. `ttlMs` expires a counter that
   * this call creates (an existing counter keeps its expiry). With `deadline` (see `StoreSetOptions`), a
   * reservation that reaches the store at or after it counts nothing.
   */
  reserve(counters: readonly StoreCounter[], options?: StoreReserveOptions): Promise<ReserveResult>;
  /** Takes 1 off each counter (never below 0): a reservation whose call did not run after all. */
  release(keys: readonly string[]): Promise<void>;
  /** Closes what the adapter opened (a client it created, a database file). */
  close?(): Promise<void>;
}

/** A value kept in a store, with the version a compare-and-set names. */
export interface StoreEntry {
  readonly value: unknown;
  /** 1 for a new entry, plus 1 per write. */
  readonly version: number;
}

/** Options of a store's write: the version expected, a lifetime, a deadline, and entries written with it. */
export interface StoreSetOptions {
  /** Compare-and-set: write only at this version (`0`: only when absent). */
  readonly ifVersion?: number;
  /** Milliseconds until the entry expires; without it, it does not. */
  readonly ttlMs?: number;
  /** Counters the write adds 1 to, all or nothing with it (see `reserve`): checked after `ifVersion`. */
  readonly reserve?: { readonly counters: readonly StoreCounter[]; readonly ttlMs?: number };
  /**
   * Another entry written with this one, or not at all (its own TTL; without one it does not expire). Its
   * key differs from this one and, on Redis Cluster, shares its hash tag (as `storeKey` makes for a session).
   */
  readonly also?: { readonly key: string; readonly value: unknown; readonly ttlMs?: number };
  /**
   * When the write stops being wanted: a time in milliseconds since the epoch, read against the store's
   * own clock (Redis' `TIME`; the machine's, or the clock it was given, for memory and SQLite). A write
   * that reaches the store at or after it writes and counts nothing and rejects with `StoreError`
   * (`unavailable`). A caller that stops waiting at some moment passes a deadline a little before it, so
   * a command that stalled on its way (a server that froze, then woke up) and lands after the caller gave
   * up does nothing: a claim or a reservation it was told failed never counts or blocks later.
   */
  readonly deadline?: number;
}

/** How a `reserve` counts: the TTL of a counter it creates, and its `deadline` (see `StoreSetOptions`). */
export interface StoreReserveOptions {
  readonly ttlMs?: number;
  readonly deadline?: number;
}

/** A store's answer to a write: written (with the new version), or the version it found instead. */
export type StoreSetResult =
  | { readonly ok: true; readonly version: number }
  | {
      readonly ok: false;
      readonly current: StoreEntry | undefined;
      /** Set when the version matched but this counter (its index in `reserve.counters`) is at its limit. */
      readonly blocked?: number;
      /** With `also`: that entry as it is (undefined when there is none). */
      readonly alsoCurrent?: StoreEntry | undefined;
    };

/** One counter of a reservation: its key, the limit it may not pass and its lifetime. */
export interface StoreCounter {
  readonly key: string;
  /** The most the counter may reach. */
  readonly limit: number;
}

/** A store's answer to a reservation of counters: reserved, or which limit was reached. */
export type ReserveResult =
  | { readonly ok: true; readonly counts: readonly number[] }
  | {
      readonly ok: false;
      /** The index of the first counter that would have passed its limit. */
      readonly blocked: number;
      /** The counters as they are (nothing was added). */
      readonly counts: readonly number[];
    };
