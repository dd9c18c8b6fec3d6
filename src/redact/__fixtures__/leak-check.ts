/**
 * Whether a fragment that must not be shown is visible in a text: exactly, in any case, with the
 * whitespace removed (a key wrapped onto two lines), or as its letters and digits only (a value whose
 * separators were changed). Letters and digits of every script count, so `Jürgen Müller` is seen too.
 */
export function leaks(shown: string, fragment: string): boolean {
  return views(fragment).some((view, index) => view !== '' && (views(shown)[index] ?? '').includes(view));
}

function views(text: string): string[] {
  const lower = text.toLowerCase();
  return [text, lower, lower.replace(/\s+/gu, ''), lower.replace(/[^\p{L}\p{N}]+/gu, '')];
}

/** The fragments of `secrets` that leak in `shown`. */
export function leakedFragments(shown: string, secrets: readonly string[]): string[] {
  return secrets.filter((secret) => leaks(shown, secret));
}
