import { redactSecrets } from '../../redact/redact.js';
import { TextMemo } from './text-memo.js';

/**
 * What an entry of the memo holds besides its text (a string's header and a Map entry: some 64 bytes),
 * counted against the bound as characters, so a flood of tiny results stays within it too.
 */
export const CLEAN_ENTRY_CHARS = 64;

/**
 * `redact` (`redactSecrets`) that remembers the texts it found nothing in. Every request of a turn brings each earlier
 * tool result again, and a result read clean once is not scanned again (the scan is most of the gateway's
 * own work on a long history). Only clean texts are kept, never one that held a secret; `maxChars` of them
 * in all (each counted with `CLEAN_ENTRY_CHARS` more), the oldest forgotten first. The answer is
 * `redact`'s every time.
 */
export function rememberingRedactor(
  maxChars: number,
  redact: (text: string) => string = redactSecrets,
): (text: string) => string {
  const clean = new TextMemo<true>(maxChars, CLEAN_ENTRY_CHARS);
  return (text) => {
    if (clean.get(text) === true) return text;
    const redacted = redact(text);
    if (redacted === text) clean.set(text, true);
    return redacted;
  };
}
