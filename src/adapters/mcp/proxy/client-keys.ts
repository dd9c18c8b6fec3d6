import { createHash } from 'node:crypto';
import type { ConfigProblem } from './proxy-config-error.js';
import type { ClientKeySource } from './proxy-config-types.js';

/** A key shorter than this is refused when the proxy starts: a guessable key is no key. */
export const MIN_CLIENT_KEY_CHARS = 16;
const MAX_KEY_FILE_LINES = 100_000;
const LINE = /^([A-Za-z0-9_.@-]{1,64})\s+([0-9a-f]{64})$/;

/** The clients of the HTTP front, by the SHA-256 of their keys. */
export interface ClientKeys {
  /** The client a request's `Authorization` header names (`Bearer <key>`), or undefined: refused. */
  authenticate(authorization: string | undefined): string | undefined;
  readonly size: number;
}

/** The SHA-256 of a key, in hex, as the keys file and `auth.clients.<id>.sha256` hold it. */
export function hashClientKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * Reads a keys file: one client a line, `<client id> <sha256 hex of its key>`; blank lines and lines
 * starting with `#` are skipped. Every bad line is a problem (by its number), never the line's text,
 * which could be a key pasted by mistake.
 */
export function parseKeysFile(text: string): { entries: [string, string][]; problems: ConfigProblem[] } {
  const entries: [string, string][] = [];
  const problems: ConfigProblem[] = [];
  const lines = text.split('\n');
  if (lines.length > MAX_KEY_FILE_LINES)
    return {
      entries,
      problems: [{ path: '$', message: `has ${lines.length} lines; at most ${MAX_KEY_FILE_LINES}` }],
    };
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = LINE.exec(line);
    if (match === null)
      problems.push({
        path: `line ${index + 1}`,
        message:
          'must be "<client id> <sha256 hex of the key>" (id: 1 to 64 letters, digits, "_", ".", "@" or "-")',
      });
    else entries.push([match[1] as string, match[2] as string]);
  });
  return { entries, problems };
}

/**
 * The keys of `auth.clients` (read from the environment now, or given as hashes) and of the keys file, as
 * one table. A client named twice, a hash given twice (two clients with one key could not be told apart),
 * a variable unset or shorter than `MIN_CLIENT_KEY_CHARS`: each a problem.
 */
export function resolveClientKeys(
  clients: Readonly<Record<string, ClientKeySource>>,
  fileEntries: readonly (readonly [string, string])[],
  env: Readonly<Record<string, string | undefined>>,
): { keys: ClientKeys; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const byHash = new Map<string, string>();
  const seen = new Set<string>();
  const add = (id: string, hash: string, path: string) => {
    if (seen.has(id)) return problems.push({ path, message: `names client "${id}" a second time` });
    if (byHash.has(hash))
      return problems.push({ path, message: `has the same key as client "${byHash.get(hash)}"` });
    seen.add(id);
    byHash.set(hash, id);
  };
  for (const [id, source] of Object.entries(clients)) {
    const path = `$.auth.clients.${id}`;
    switch (source.kind) {
      case 'sha256':
        add(id, source.hash, path);
        break;
      case 'env': {
        const key = env[source.name];
        if (key === undefined || key.length < MIN_CLIENT_KEY_CHARS)
          problems.push({
            path,
            message: `the variable ${source.name} is ${key === undefined ? 'not set' : 'too short'}: a key has at least ${MIN_CLIENT_KEY_CHARS} characters`,
          });
        else add(id, hashClientKey(key), path);
        break;
      }
      default: {
        const never: never = source;
        return never;
      }
    }
  }
  for (const [id, hash] of fileEntries) add(id, hash, `$.auth.keysFile (client ${id})`);
  return { keys: clientKeysOf(byHash), problems };
}

function clientKeysOf(byHash: ReadonlyMap<string, string>): ClientKeys {
  return {
    size: byHash.size,
    authenticate(authorization) {
      const key = bearerOf(authorization);
      if (key === undefined) return undefined;
      // Looked up by the key's hash, never compared as text: what the lookup's timing could tell is about a
      // hash of the key presented, not about a stored key.
      return byHash.get(hashClientKey(key));
    },
  };
}

/** The key of `Authorization: Bearer <key>` (the scheme case-insensitive, RFC 9110), or undefined. */
function bearerOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined || authorization.length > 4096) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  return match?.[1];
}
