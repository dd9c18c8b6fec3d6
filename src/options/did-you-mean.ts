/** Keys longer than this get no suggestion: the edit distance is quadratic, and a 10 MB key is no typo. */
const MAX_SUGGESTED_LENGTH = 64;

/**
 * The known name closest to `given` when it is close enough to be a typo (an edit distance of at most a
 * third of its length, and at most 3, case ignored), or undefined.
 */
export function didYouMean(given: string, known: readonly string[]): string | undefined {
  if (given.length > MAX_SUGGESTED_LENGTH) return undefined;
  const lower = given.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.max(1, Math.floor(given.length / 3)));
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance <= bestDistance && (best === undefined || distance < bestDistance)) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, with adjacent transpositions counted as one edit (`tiemouts` → `timeouts`). */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      current.push(value);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
