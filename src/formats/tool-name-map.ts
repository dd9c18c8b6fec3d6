import { MAX_ORIGINAL_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN } from '../core/defaults.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { sanitizeName } from '../redact/redact.js';

/** Longest original name a map accepts: MCP recommends at most 128; anything far longer is not a name. */

const MAX_PROVIDER_LENGTH = 64;
const HASH_LENGTH = 8;
/** Characters of the cleaned name kept before `_` and the hash. */
const PREFIX_LENGTH = MAX_PROVIDER_LENGTH - HASH_LENGTH - 1;
const ILLEGAL_CHARACTER = /[^a-zA-Z0-9_-]/g;

/**
 * A reversible mapping between the names tools have in their source (MCP, BFCL: `math.sqrt`,
 * `ünïcode tool`) and names every provider accepts (`^[a-zA-Z0-9_-]{1,64}$`).
 */
export interface ToolNameMap {
  /** The provider-legal name of an original name, or undefined when the map does not hold it. */
  toProvider(originalName: string): string | undefined;
  /** The original name behind a provider-legal name, or undefined when the map does not hold it. */
  toOriginal(providerName: string): string | undefined;
  /** Every `[original, provider]` pair, in the order the names were given. */
  entries(): readonly (readonly [original: string, provider: string])[];
}

/**
 * Builds a bijective name map for a set of original names. The rules, in order:
 * 1. a name providers accept maps to itself;
 * 2. any other name has each illegal character replaced by `_` (`math.sqrt` → `math_sqrt`, as BFCL does);
 *    that name is used when it is at most 64 characters and no other original name claims it (neither
 *    as itself nor after cleaning);
 * 3. every remaining name (too long, or clashing: `a.b` next to `a_b`, two long names with the same first
 *    64 characters) becomes its first 55 cleaned characters, `_`, and an 8-digit hash of the original
 *    (FNV-1a); the rare hash clash is resolved by rehashing with a counter, in sorted order.
 * The result depends only on the set of names, not on their order. Repeated names count once.
 */
export function createToolNameMap(originalNames: Iterable<string>): ToolNameMap {
  const originals = collectNames(originalNames);
  const toProvider = new Map<string, string>();
  const toOriginal = new Map<string, string>();
  const assign = (original: string, provider: string): void => {
    toProvider.set(original, provider);
    toOriginal.set(provider, original);
  };

  const illegal: string[] = [];
  for (const name of originals) {
    if (TOOL_NAME_PATTERN.test(name)) assign(name, name);
    else illegal.push(name);
  }
  const claims = new Map<string, string[]>();
  const needsHash: string[] = [];
  for (const name of illegal) {
    const cleaned = cleanName(name);
    if (cleaned.length > MAX_PROVIDER_LENGTH) {
      needsHash.push(name);
      continue;
    }
    const claimants = claims.get(cleaned);
    if (claimants === undefined) claims.set(cleaned, [name]);
    else claimants.push(name);
  }
  for (const [cleaned, claimants] of claims) {
    const [only] = claimants;
    if (claimants.length === 1 && only !== undefined && !toOriginal.has(cleaned)) assign(only, cleaned);
    else needsHash.push(...claimants);
  }
  needsHash.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of needsHash) {
    const prefix = cleanName(name).slice(0, PREFIX_LENGTH);
    for (let salt = 0; ; salt++) {
      const candidate = `${prefix}_${hashName(salt === 0 ? name : `${name}\u0000${salt}`)}`;
      if (!toOriginal.has(candidate)) {
        assign(name, candidate);
        break;
      }
    }
  }

  const entries = Object.freeze(
    originals.map((name) => Object.freeze([name, toProvider.get(name) as string] as const)),
  );
  return Object.freeze({
    toProvider: (originalName: string) => toProvider.get(originalName),
    toOriginal: (providerName: string) => toOriginal.get(providerName),
    entries: () => entries,
  });
}

/** Checks every name now, so a bad one fails here with its position rather than at a model's call. */
function collectNames(originalNames: Iterable<string>): string[] {
  if (
    typeof originalNames !== 'object' ||
    originalNames === null ||
    typeof (originalNames as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== 'function'
  ) {
    throw new InvalidOptionsError({
      option: 'originalNames',
      message: 'expected an iterable of tool names.',
    });
  }
  const seen = new Set<string>();
  const names: string[] = [];
  let index = 0;
  for (const name of originalNames as Iterable<unknown>) {
    const problem = checkOriginalName(name);
    if (problem !== undefined) {
      throw new InvalidOptionsError({ option: `originalNames[${index}]`, message: problem });
    }
    const valid = name as string;
    if (!seen.has(valid)) {
      seen.add(valid);
      names.push(valid);
    }
    index++;
  }
  return names;
}

/** Why a value cannot be an original tool name, or undefined when it can. */
export function checkOriginalName(name: unknown): string | undefined {
  if (typeof name !== 'string')
    return `a tool name must be a string, got ${name === null ? 'null' : typeof name}.`;
  if (name.length === 0) return 'a tool name must not be empty.';
  if (name.length > MAX_ORIGINAL_TOOL_NAME_LENGTH) {
    return `the tool name "${sanitizeName(name, 40)}" has ${name.length} characters; at most ${MAX_ORIGINAL_TOOL_NAME_LENGTH} are accepted.`;
  }
  return undefined;
}

function cleanName(name: string): string {
  return name.replace(ILLEGAL_CHARACTER, '_');
}

/** FNV-1a over the UTF-16 code units, as 8 hex digits: stable across runs, platforms and versions. */
function hashName(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(HASH_LENGTH, '0');
}
