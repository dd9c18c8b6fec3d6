import { hash53 } from './fingerprint.js';

/** At most this many values of one text are kept: the first half and the last half (a cursor comes last). */
export const MAX_OFFERED_VALUES = 16;

/**
 * The digests of the handles a text holds: its quoted values (not keys: no `:` follows) of 2 to 64
 * characters without whitespace, at most `MAX_OFFERED_VALUES`. How the guard tells a call that follows
 * an answer (a cursor, a lease, a session token the last answer gave) from one that repeats itself with
 * a fresh value of its own. One pass, no regular expression: every answer goes through it.
 */
export function offeredValues(text: string): number[] {
  const found: string[] = [];
  let at = text.indexOf('"');
  while (at !== -1) {
    let end = at + 1;
    let plain = true;
    for (; end < text.length; end++) {
      const code = text.charCodeAt(end);
      if (code === 34) break;
      if (code === 92) end++;
      else if (code === 32 || code === 10 || code === 13 || code === 9) plain = false;
    }
    if (end >= text.length) break;
    let next = end + 1;
    while (next < text.length && text.charCodeAt(next) <= 32) next++;
    const length = end - at - 1;
    if (plain && length >= 2 && length <= 64 && text.charCodeAt(next) !== 58)
      found.push(text.slice(at + 1, end));
    at = text.indexOf('"', end + 1);
  }
  const half = MAX_OFFERED_VALUES / 2;
  const kept = found.length <= MAX_OFFERED_VALUES ? found : [...found.slice(0, half), ...found.slice(-half)];
  return kept.map(hash53);
}
