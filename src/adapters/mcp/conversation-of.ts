/** The header a client names its conversation with (as the gateway's): its limits, guard memory and records. */
export const CONVERSATION_HEADER = 'x-toolwarden-session';
/** The same, in a 2026-07-28 request's `params._meta`, for a client that cannot set a header per conversation. */
export const CONVERSATION_META_KEY = 'toolwarden/session';
// With a client id (at most 64) and its slash, a session id stays within the proxy's 200.
const MAX_CONVERSATION_CHARS = 128;
/** What a conversation's id must be, said to a client that sent another. */
export const CONVERSATION_RULE = `A conversation id must be 1 to ${MAX_CONVERSATION_CHARS} printable ASCII characters (the ${CONVERSATION_HEADER} header, or ${CONVERSATION_META_KEY} in a 2026-07-28 request's _meta).`;

/**
 * The conversation a client names: undefined when it names none, false when the value is not an id.
 * Always taken under the client's id, so no client reaches another's state.
 */
export function conversationOf(value: unknown): string | undefined | false {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  if (
    typeof text !== 'string' ||
    text === '' ||
    text.length > MAX_CONVERSATION_CHARS ||
    !/^[\x21-\x7e][\x20-\x7e]*$/.test(text)
  )
    return false;
  return text;
}
