import { createHash } from 'node:crypto';

/** What separates a server's namespace from its tool's name in the names the client sees. */
export type NamespaceSeparator = '.' | '_' | '__';

/** The separators a config may choose. */
export const NAMESPACE_SEPARATORS: readonly NamespaceSeparator[] = ['.', '_', '__'];

/**
 * A namespace: a lowercase letter, then up to 31 lowercase letters, digits or `-`. It holds neither `.`
 * nor `_`, so the first separator in a client's name always ends the namespace.
 */
export const NAMESPACE_RULE = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * The longest name the client sees: 64, the strictest rule of the model APIs a client hands the names to
 * (OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`; MCP itself allows 128 of `A-Za-z0-9_.-`).
 */
export const MAX_CLIENT_TOOL_NAME_CHARS = 64;

const SAFE = /^[A-Za-z0-9_.-]+$/;
const HASH_CHARS = 8;
const MAX_HASH_ATTEMPTS = 8;

/** One server's tools renamed for the client: both directions, and the tools that could not be named. */
export interface NamespacedNames {
  /** The client's name of each upstream name (for the names given). */
  readonly toClient: ReadonlyMap<string, string>;
  /** The upstream name of each client name. */
  readonly toUpstream: ReadonlyMap<string, string>;
}

/**
 * Names one server's tools for the client: `<namespace><separator><tool>` when that is at most
 * `MAX_CLIENT_TOOL_NAME_CHARS` characters of `A-Za-z0-9_.-`; otherwise the tool's name with every other
 * character as `_`, cut to fit, and `_` with the first 8 hex digits of its SHA-256, so two long names stay
 * apart. The mapping is a table kept both ways (a hashed name cannot be undone by hand); a name taken
 * already (two upstream names made the same) is hashed too, and a hashed name taken already is hashed
 * again with a counter. The same names in the same order always give
 * the same mapping.
 */
export function namespaceToolNames(
  namespace: string,
  separator: NamespaceSeparator,
  names: readonly string[],
): NamespacedNames {
  const toClient = new Map<string, string>();
  const toUpstream = new Map<string, string>();
  const prefix = `${namespace}${separator}`;
  for (const name of names) {
    if (toClient.has(name)) continue;
    let client = `${prefix}${name}`;
    // A hashed name taken already (a server can list a name of the hashed form on purpose) is hashed
    // again with a counter; past a few tries the tool is left out rather than shadow another.
    for (let attempt = 0; attempt < MAX_HASH_ATTEMPTS; attempt++) {
      if (SAFE.test(name) && client.length <= MAX_CLIENT_TOOL_NAME_CHARS && !toUpstream.has(client)) break;
      client = hashedName(prefix, name, attempt);
      if (!toUpstream.has(client)) break;
    }
    if (toUpstream.has(client)) continue;
    toClient.set(name, client);
    toUpstream.set(client, name);
  }
  return { toClient, toUpstream };
}

function hashedName(prefix: string, name: string, attempt: number): string {
  const input = attempt === 0 ? name : `${name}\u0000${attempt}`;
  const hash = createHash('sha256').update(input).digest('hex').slice(0, HASH_CHARS);
  const room = Math.max(0, MAX_CLIENT_TOOL_NAME_CHARS - prefix.length - HASH_CHARS - 1);
  const readable = name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, room);
  return `${prefix}${readable}_${hash}`;
}

/** The namespace a client's name starts with (the text before the first separator), or undefined. */
export function namespaceOf(name: string, separator: NamespaceSeparator): string | undefined {
  const at = name.indexOf(separator);
  return at <= 0 ? undefined : name.slice(0, at);
}
