import { withTimeout } from '../../chain/with-timeout.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS } from '../../core/defaults.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { StoreError } from '../../core/errors/store-error.js';
import type {
  ReserveResult,
  Store,
  StoreCounter,
  StoreEntry,
  StoreReserveOptions,
  StoreSetOptions,
  StoreSetResult,
} from '../../core/store.js';
import {
  checkAlso,
  checkCounters,
  checkKey,
  checkReserve,
  checkTtl,
  checkVersion,
  decodeStoreValue,
  encodeStoreValue,
} from '../../core/store-value.js';
import { checkNumberOption, describeOptionValue } from '../../options/check-option.js';
import { checkDeadline, earlierDeadline, storeDeadline } from '../../store/store-deadline.js';
import { connectRedisClient, quitRedisClient } from './connect-redis-client.js';
import {
  DELETE_SCRIPT,
  type LuaScript,
  RELEASE_SCRIPT,
  RESERVE_SCRIPT,
  SET_SCRIPT,
} from './redis-scripts.js';
import { toRedisStoreError } from './redis-store-error.js';

/** The commands the store sends, as node-redis' clients (`createClient`, `createCluster`) have them. */
export interface RedisStoreCommands {
  /** Runs a loaded script by its SHA1. */
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** Runs a script (and loads it). */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** Reads fields of a hash. */
  hmGet(key: string, fields: string[]): Promise<unknown>;
}

/**
 * A connected node-redis client (`redis@5` or `6`: `createClient`, or `createCluster` for Redis Cluster).
 * The store only borrows it: it sends each command with an abort signal of its own and never closes it.
 */
export interface RedisStoreClient {
  /** The client, sending each command with this abort signal. */
  withCommandOptions(options: { abortSignal: AbortSignal }): RedisStoreCommands;
}

/** Where the store's data lives: a URL (the store makes, connects and closes its own client) or a client. */
export type RedisStoreTarget = { readonly url: string } | { readonly client: RedisStoreClient };

/** How `createRedisStore` names keys and how long it waits for Redis. */
export interface RedisStoreOptions {
  /**
   * Put before every key (`myapp:` makes `myapp:tw:{session}:…`), outside the hash tag, so one Redis can
   * hold several applications. It may not contain `{` or `}`. Default: none, keys are used as given.
   */
  readonly keyPrefix?: string;
  /** Every operation settles within this many milliseconds (default `DEFAULT_REDIS_COMMAND_TIMEOUT_MS`). */
  readonly commandTimeoutMs?: number;
}

const MAX_KEY_PREFIX_CHARS = 256;

/**
 * The shared store (`toolwarden/redis`): each operation is one round trip, a Lua script where it reads
 * then writes (so compare-and-set and reservations are atomic across processes), `HMGET` for a read.
 * Keys are sent as given after `keyPrefix`; the keys of one `reserve` or `release` must share a hash tag
 * on Redis Cluster (the keys `storeKey` builds for one session do).
 *
 * An entry is a Redis hash and a counter a Redis string: a key used for both reads as `corrupt`. When
 * Redis cannot be reached or does not answer within `commandTimeoutMs`, the call rejects with
 * `StoreError` (`unavailable`, the client's error as its `cause`). A `set` or `reserve` that timed out
 * after it was sent does nothing should it reach Redis later (a server that froze, then woke up): each
 * carries a deadline before the store gives up, checked against Redis' clock (see `StoreSetOptions`;
 * the hosts' clocks must agree with Redis' to within `DEFAULT_STORE_CLOCK_MARGIN_MS`). A `delete` or a
 * `release` carries none: one that lands late still gives back what it was sent to give back. The store
 * works again once the client has reconnected.
 *
 * Made by `createRedisStore`.
 */
export class RedisStore implements Store {
  readonly #client: RedisStoreClient;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  /** Closes the client when the store made it; undefined when the client is the caller's. */
  readonly #closeClient: (() => Promise<void>) | undefined;
  #closed = false;

  /** Use `createRedisStore`. */
  constructor(
    client: RedisStoreClient,
    options: { readonly prefix: string; readonly timeoutMs: number },
    closeClient?: () => Promise<void>,
  ) {
    this.#client = client;
    this.#prefix = options.prefix;
    this.#timeoutMs = options.timeoutMs;
    this.#closeClient = closeClient;
  }

  /** The entry under `key`; undefined when there is none or it has expired (the `Store` port's `get`). */
  async get(key: string): Promise<StoreEntry | undefined> {
    checkKey(key);
    const reply = await this.#send('get', (commands) => commands.hmGet(this.#prefix + key, ['v', 'n']));
    const [text, version] = Array.isArray(reply) ? reply.map(optionalText) : [];
    if (text === undefined && version === undefined) return undefined;
    if (text === undefined || version === undefined || !/^[1-9]\d*$/.test(version)) {
      throw new StoreError({
        reason: 'corrupt',
        operation: 'get',
        message: 'the stored entry has no value or no version',
      });
    }
    return { value: decodeStoreValue(text, 'get'), version: Number(version) };
  }

  /** Writes `value` under `key`, under the options' conditions (the `Store` port's `set`). */
  async set(key: string, value: unknown, options: StoreSetOptions = {}): Promise<StoreSetResult> {
    checkKey(key);
    checkVersion(options.ifVersion);
    checkTtl(options.ttlMs);
    checkReserve(options.reserve);
    checkAlso(options.also, key);
    checkDeadline(options.deadline);
    const deadline = this.#deadline(options.deadline);
    const text = encodeStoreValue(value);
    const { also } = options;
    const alsoText = also === undefined ? '' : encodeStoreValue(also.value);
    const counters = options.reserve?.counters ?? [];
    const reply = await this.#script(
      'set',
      SET_SCRIPT,
      [key, ...(also === undefined ? [] : [also.key]), ...counters.map((counter) => counter.key)],
      [
        text,
        optionalArgument(options.ifVersion),
        optionalArgument(options.ttlMs),
        optionalArgument(options.reserve?.ttlMs),
        alsoText,
        optionalArgument(also?.ttlMs),
        String(deadline),
        ...counters.map((counter) => String(counter.limit)),
      ],
    );
    const [written, version, current, blocked, alsoVersion, alsoCurrent] = reply;
    if (Number(written) === 1) return { ok: true, version: Number(version) };
    return {
      ok: false,
      current: entryOf(version, current),
      ...(Number(blocked) >= 0 ? { blocked: Number(blocked) } : {}),
      ...(also === undefined ? {} : { alsoCurrent: entryOf(alsoVersion, alsoCurrent) }),
    };
  }

  /** Removes the entry (with `ifVersion`, only at that version); true when one was removed. */
  async delete(key: string, options: { readonly ifVersion?: number } = {}): Promise<boolean> {
    checkKey(key);
    checkVersion(options.ifVersion);
    const reply = await this.#script('delete', DELETE_SCRIPT, [key], [optionalArgument(options.ifVersion)]);
    return Number(reply) === 1;
  }

  /** Adds 1 to every counter when each stays within its limit, else to none, atomically (the `Store` port's `reserve`). */
  async reserve(
    counters: readonly StoreCounter[],
    options: StoreReserveOptions = {},
  ): Promise<ReserveResult> {
    checkCounters(counters);
    checkTtl(options.ttlMs);
    checkDeadline(options.deadline);
    const deadline = this.#deadline(options.deadline);
    const [reserved, blocked, ...counts] = await this.#script(
      'reserve',
      RESERVE_SCRIPT,
      counters.map((counter) => counter.key),
      [
        optionalArgument(options.ttlMs),
        String(deadline),
        ...counters.map((counter) => String(counter.limit)),
      ],
    );
    const numbers = counts.map(Number);
    return Number(reserved) === 1
      ? { ok: true, counts: numbers }
      : { ok: false, blocked: Number(blocked), counts: numbers };
  }

  /** Takes 1 off each counter (never below 0): a reservation whose call did not run. */
  async release(keys: readonly string[]): Promise<void> {
    if (!Array.isArray(keys)) throw new TypeError('release takes an array of keys');
    for (const key of keys) checkKey(key);
    if (keys.length === 0) return;
    await this.#script('release', RELEASE_SCRIPT, keys, []);
  }

  /**
   * The deadline a `set` or a `reserve` carries: the caller's, or earlier the one of this store's own wait
   * (`commandTimeoutMs`): a command that is still in flight when the store gives up on it (sent, then
   * Redis froze) does nothing when it lands. node-redis cannot withdraw a command once it is written to
   * the socket, and its offline queue does not help while the connection stays up.
   */
  #deadline(given: number | undefined): number {
    return earlierDeadline(given, storeDeadline(this.#timeoutMs)) as number;
  }

  /** Closes the client the store made (a client passed in stays open). Later calls reject (`unavailable`). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#closeClient?.();
  }

  /** Runs a script by its SHA-1, and by its text when the server does not have it cached (`NOSCRIPT`). */
  async #script(
    operation: string,
    script: LuaScript,
    keys: readonly string[],
    args: string[],
  ): Promise<unknown[]> {
    const options = { keys: keys.map((key) => this.#prefix + key), arguments: args };
    const reply = await this.#send(operation, async (commands) => {
      try {
        return await commands.evalSha(script.sha1, options);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
        return commands.eval(script.text, options);
      }
    });
    return Array.isArray(reply) ? reply : [reply];
  }

  /** Sends with a deadline: the abort signal drops a command still queued in the client when it passes. */
  async #send<T>(operation: string, send: (commands: RedisStoreCommands) => Promise<T>): Promise<T> {
    if (this.#closed) {
      throw new StoreError({ reason: 'unavailable', operation, message: 'the store is closed' });
    }
    const controller = new AbortController();
    try {
      return await withTimeout(
        () => send(this.#client.withCommandOptions({ abortSignal: controller.signal })),
        {
          timeoutMs: this.#timeoutMs,
          timeoutError: () =>
            new StoreError({
              reason: 'unavailable',
              operation,
              message: `Redis did not answer within ${this.#timeoutMs} ms`,
            }),
          signal: undefined,
          abort: (reason) => controller.abort(reason),
        },
      );
    } catch (error) {
      throw toRedisStoreError(error, operation);
    }
  }
}

/**
 * A store over Redis. With `{ url }` (`redis://user:password@host:6379/0`, `rediss://` for TLS) the store
 * makes its own client, connects it (rejecting with `StoreError`, `unavailable`, when Redis does not
 * answer within `commandTimeoutMs`), reconnects it after an outage, and closes it on `close()`. Its
 * commands are not queued while it is disconnected: they reject at once. With `{ client }` the store
 * uses that connected client as it is (its offline queue, its reconnect strategy) and never closes it.
 */
export async function createRedisStore(
  target: RedisStoreTarget,
  options: RedisStoreOptions = {},
): Promise<RedisStore> {
  const prefix = checkKeyPrefix(options.keyPrefix);
  const timeoutMs =
    checkNumberOption(options.commandTimeoutMs, { option: 'commandTimeoutMs', min: 1, timer: true }) ??
    DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const settings = { prefix, timeoutMs };
  const given = (target ?? {}) as { url?: unknown; client?: unknown };
  if (given.client !== undefined && given.url === undefined) {
    if (typeof (given.client as RedisStoreClient).withCommandOptions !== 'function') {
      throw new InvalidOptionsError({ option: 'client', message: 'must be a node-redis client' });
    }
    return new RedisStore(given.client as RedisStoreClient, settings);
  }
  if (typeof given.url !== 'string' || given.client !== undefined) {
    throw new InvalidOptionsError({
      option: 'url',
      message: `give either url (a string) or client, got ${describeOptionValue(given.url)}`,
    });
  }
  const client = await connectRedisClient(given.url, timeoutMs);
  return new RedisStore(client, settings, () => quitRedisClient(client, timeoutMs));
}

function checkKeyPrefix(prefix: unknown): string {
  if (prefix === undefined) return '';
  if (typeof prefix !== 'string' || prefix.length > MAX_KEY_PREFIX_CHARS || /[{}]/.test(prefix)) {
    throw new InvalidOptionsError({
      option: 'keyPrefix',
      message: `must be a string of at most ${MAX_KEY_PREFIX_CHARS} characters without { or } (it would move the hash tag), got ${describeOptionValue(prefix)}`,
    });
  }
  return prefix;
}

/** An entry as the set script hands it back: version 0 is none. */
function entryOf(version: unknown, text: unknown): StoreEntry | undefined {
  if (Number(version) === 0) return undefined;
  return { value: decodeStoreValue(optionalText(text) ?? '', 'set'), version: Number(version) };
}

/** An optional whole number as a script argument: '' when it is not given. */
function optionalArgument(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

/** A bulk-string reply as text (a client with a `typeMapping` may hand back a Buffer); null as undefined. */
function optionalText(reply: unknown): string | undefined {
  if (reply === null || reply === undefined) return undefined;
  return Buffer.isBuffer(reply) ? reply.toString('utf8') : String(reply);
}
