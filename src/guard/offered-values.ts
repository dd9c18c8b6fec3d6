import { hash53 } from './fingerprint.js';

// A quoted value that is not a key: what a result offers a next call (an id, a cursor, a lease), or
// what a call's arguments pass on. Values with whitespace are prose, not handles.
const VALUE = /"((?:[^"\\\s]|\\.){2,64})"(?!\s*:)/g;

/** At most this many values of one text are kept: the first half and the last half (a cursor comes last). */
export const MAX_OFFERED_VALUES = 16;

/**
 * The digests of the handles a text holds (quoted values of 2 to 64 characters without whitespace), at
 * most `MAX_OFFERED_VALUES`: how the guard tells a call that follows an answer (a cursor, a lease, a
 * session token the last answer gave) from one that repeats itself with a fresh value of its own.
 */
export function offeredValues(text: string): number[] {
  const found: string[] = [];
  for (const match of text.matchAll(VALUE)) found.push(match[1] as string);
  const half = MAX_OFFERED_VALUES / 2;
  const kept = found.length <= MAX_OFFERED_VALUES ? found : [...found.slice(0, half), ...found.slice(-half)];
  return kept.map(hash53);
}
