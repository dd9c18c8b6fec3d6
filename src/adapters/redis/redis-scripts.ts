import { createHash } from 'node:crypto';

/**
 * The Lua scripts of the Redis store: each store operation that reads and then writes is one of them, so
 * it is atomic on the server and costs one round trip. Only core commands (Redis 7.0, Valkey).
 *
 * Layout: an entry is a hash with fields `v` (the value's JSON text) and `n` (its version, 1 or more); a
 * counter is a string holding a whole number (`INCR`). A key is one or the other: a script that meets
 * the other type fails with Redis' `WRONGTYPE`, and a field that is not of this shape fails with a
 * `TWCORRUPT` error reply; the store reports both as `StoreError` (`corrupt`).
 *
 * Scripts never return a Lua boolean: RESP2 and RESP3 clients would read it differently.
 */

/** A script's text and its SHA-1, by which `EVALSHA` runs it once the server has it cached. */
export interface LuaScript {
  readonly text: string;
  readonly sha1: string;
}

function luaScript(text: string): LuaScript {
  return { text, sha1: createHash('sha1').update(text).digest('hex') };
}

/** The error-reply code a script raises when what it reads is not of the store's shape. */
export const CORRUPT_REPLY = 'TWCORRUPT';

/** The error-reply code a script raises when it reached Redis at or after its deadline: it wrote nothing. */
export const LATE_REPLY = 'TWLATE';

/**
 * Refuses a command whose deadline (milliseconds since the epoch, '' for none) has passed by Redis' own
 * clock. `TIME` in a script is allowed since Redis 5 replicates a script's effects, not the script.
 */
const CHECK_DEADLINE = `
local function refuse_late(deadline)
  if deadline == '' then return nil end
  local now = redis.call('TIME')
  if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) >= tonumber(deadline) then
    return redis.error_reply('${LATE_REPLY} the command reached Redis after its deadline: nothing was written')
  end
  return nil
end`;

const CHECK_VERSION = `
local function version_of(text, n)
  if text == false and n == false then return 0 end
  if text == false or n == false or not string.match(n, '^[1-9]%d*$') then
    return redis.error_reply('${CORRUPT_REPLY} the stored entry has no value or no version')
  end
  return tonumber(n)
end`;

const CHECK_COUNT = `
local function count_of(key)
  local raw = redis.call('GET', key)
  if raw == false then return 0 end
  if not string.match(raw, '^%d+$') then
    return redis.error_reply('${CORRUPT_REPLY} the stored counter is not a whole number')
  end
  return tonumber(raw)
end`;

/**
 * KEYS[1] the entry; then, with an `also` entry, KEYS[2] that one; then the counters a counted write adds 1
 * to (none for a plain `set`). ARGV: the value's text, `ifVersion`, `ttlMs`, the counters' `ttlMs`, the
 * `also` value's text, its `ttlMs`, the `deadline` ('' for each when not given), then the counters'
 * limits. A command past its deadline fails (`TWLATE`) before it reads anything. The version is
 * checked first, then the counters; the entry (and the `also` one) is written and every counter takes 1,
 * or nothing changes. Returns `{1, version}` when written, else `{0, version, text, blocked, alsoVersion,
 * alsoText}`: version 0 and text '' without an entry, blocked -1 unless a counter is full, and the `also`
 * entry as it is (0 and '' when there is none or none was given). A write without a TTL clears the
 * entry's old one (`PERSIST`).
 */
export const SET_SCRIPT = luaScript(
  `${CHECK_DEADLINE}
${CHECK_VERSION}
${CHECK_COUNT}
local late = refuse_late(ARGV[7])
if late then return late end
local fields = redis.call('HMGET', KEYS[1], 'v', 'n')
local version = version_of(fields[1], fields[2])
if type(version) == 'table' then return version end
local first = 2
local also_version = 0
local also_text = ''
if ARGV[5] ~= '' then
  first = 3
  local also = redis.call('HMGET', KEYS[2], 'v', 'n')
  also_version = version_of(also[1], also[2])
  if type(also_version) == 'table' then return also_version end
  also_text = also[1] or ''
end
if ARGV[2] ~= '' and tonumber(ARGV[2]) ~= version then
  return {0, version, fields[1] or '', -1, also_version, also_text}
end
for i = first, #KEYS do
  local count = count_of(KEYS[i])
  if type(count) == 'table' then return count end
  if count + 1 > tonumber(ARGV[i - first + 8]) then
    return {0, version, fields[1] or '', i - first, also_version, also_text}
  end
end
for i = first, #KEYS do
  redis.call('INCR', KEYS[i])
  if ARGV[4] ~= '' then redis.call('PEXPIRE', KEYS[i], ARGV[4], 'NX') end
end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'n', version + 1)
if ARGV[3] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[3]) else redis.call('PERSIST', KEYS[1]) end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[2], 'v', ARGV[5], 'n', also_version + 1)
  if ARGV[6] ~= '' then redis.call('PEXPIRE', KEYS[2], ARGV[6]) else redis.call('PERSIST', KEYS[2]) end
end
return {1, version + 1}`,
);

/**
 * KEYS[1] the entry; ARGV[1] `ifVersion` ('' when not given). Returns 1 when the entry was removed.
 * Without `ifVersion` the key is removed whatever its fields hold, so a damaged entry can be cleared.
 */
export const DELETE_SCRIPT = luaScript(
  `${CHECK_VERSION}
local fields = redis.call('HMGET', KEYS[1], 'v', 'n')
if ARGV[1] == '' then return redis.call('DEL', KEYS[1]) end
local version = version_of(fields[1], fields[2])
if type(version) == 'table' then return version end
if version == 0 or tonumber(ARGV[1]) ~= version then return 0 end
return redis.call('DEL', KEYS[1])`,
);

/**
 * KEYS the counters; ARGV[1] `ttlMs`, ARGV[2] the `deadline` ('' for each when not given), ARGV[3..]
 * their limits. A command past its deadline fails (`TWLATE`) and counts nothing. Checks every counter,
 * then adds 1 to each, or to none. Returns `{1, -1, count…}` (the new counts) or `{0, blocked, count…}`
 * (the index of the first counter that would pass its limit, and the counts as they are). The TTL is set
 * with `PEXPIRE … NX`: only on a counter that has no expiry yet, so an existing one keeps its own.
 */
export const RESERVE_SCRIPT = luaScript(
  `${CHECK_DEADLINE}
${CHECK_COUNT}
local late = refuse_late(ARGV[2])
if late then return late end
local counts = {}
for i, key in ipairs(KEYS) do
  local count = count_of(key)
  if type(count) == 'table' then return count end
  counts[i] = count
end
for i = 1, #KEYS do
  if counts[i] + 1 > tonumber(ARGV[i + 2]) then return {0, i - 1, unpack(counts)} end
end
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('INCR', key)
  if ARGV[1] ~= '' then redis.call('PEXPIRE', key, ARGV[1], 'NX') end
end
return {1, -1, unpack(counts)}`,
);

/** KEYS the counters (a key may repeat). Takes 1 off each counter above 0; an absent one stays absent. */
export const RELEASE_SCRIPT = luaScript(
  `${CHECK_COUNT}
for _, key in ipairs(KEYS) do
  local count = count_of(key)
  if type(count) == 'table' then return count end
  if count > 0 then redis.call('DECR', key) end
end
return 0`,
);
