import { createHash } from 'node:crypto';

/** Characters of a session id kept as they are in a key; a longer one is replaced by its digest. */
const MAX_SESSION_CHARS = 200;

/**
 * The key of something kept for a session: `tw:{<session>}:<part>:<part>…`. The braces are a Redis hash
 * tag: every key of one session lands in one slot, so a script may touch several. The session id is
 * percent-encoded (a `{`, `}` or `:` in it cannot move the tag or forge another session's key); a session
 * id longer than 200 characters is replaced by its SHA-256. Parts are encoded the same way.
 */
export function storeKey(sessionId: string, ...parts: readonly string[]): string {
  const session =
    sessionId.length > MAX_SESSION_CHARS
      ? `sha256-${createHash('sha256').update(sessionId).digest('hex')}`
      : encodeURIComponent(sessionId);
  return `tw:{${session}}${parts.map((part) => `:${encodePart(part)}`).join('')}`;
}

function encodePart(part: string): string {
  return part.length > MAX_SESSION_CHARS
    ? `sha256-${createHash('sha256').update(part).digest('hex')}`
    : encodeURIComponent(part);
}
