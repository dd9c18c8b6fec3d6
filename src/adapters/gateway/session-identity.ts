import { createHash } from 'node:crypto';
import type { IdentityHints } from './wire.js';

/** The conversation a request belongs to, and what named it. */
export interface SessionIdentity {
  /** The session's id: the store's key and the audit's `sessionId`. */
  readonly id: string;
  /**
   * `header`: the app's `x-toolwarden-session`; `conversation`: an id in the request's own fields;
   * `user`: the request's end user (every conversation of the user shares it); `opening`: a digest of the
   * system prompt and the first user message (conversations that open alike share it).
   */
  readonly source: 'header' | 'conversation' | 'user' | 'opening';
}

/** As `guardTools`' `sessionId` and the MCP proxy's: longer ids are refused, so an id stays readable in the audit. */
export const MAX_SESSION_ID_CHARS = 200;

/** The header is present but is not a session id (empty, too long, or not printable). */
export class SessionHeaderError extends Error {
  override readonly name = 'SessionHeaderError';
}

/**
 * Names the request's conversation: the session header when the app sends one, else a conversation id in
 * the request, else its user, else a digest of how the conversation opened. Each source is kept apart in
 * the id (`user:ann`, `opening:3f…`), so a user named like a header's session never shares its memory.
 */
export function sessionIdentity(
  header: string | readonly string[] | undefined,
  hints: IdentityHints,
): SessionIdentity {
  if (header !== undefined) {
    const value = typeof header === 'string' ? header : header.join(',');
    if (value === '' || value.length > MAX_SESSION_ID_CHARS || !/^[\x21-\x7e][\x20-\x7e]*$/.test(value))
      throw new SessionHeaderError(
        `must be 1 to ${MAX_SESSION_ID_CHARS} printable ASCII characters (no leading space)`,
      );
    return { id: value, source: 'header' };
  }
  if (hints.conversation !== undefined)
    return { id: `conversation:${bounded(hints.conversation)}`, source: 'conversation' };
  if (hints.user !== undefined) return { id: `user:${bounded(hints.user)}`, source: 'user' };
  return { id: `opening:${digest(hints.opening)}`, source: 'opening' };
}

/** A field's value kept as it is when short, else its digest (the id must stay a bounded key). */
function bounded(value: string): string {
  return value.length <= MAX_SESSION_ID_CHARS - 20 ? value : `sha256-${digest(value)}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}
