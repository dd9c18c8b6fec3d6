/**
 * A tool name or a glob over names, as the allow and deny lists hold them: `*` matches any run of
 * characters (none included), every other character itself (`fs_*`, `*_delete`, `*`).
 */
export function matchesPattern(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  // The classic two-pointer wildcard match: linear in practice, O(n·m) at worst, and never backtracks
  // exponentially (a regular expression built from the pattern could, on `*a*a*a*…`).
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Whether any of the patterns matches the name. */
export function matchesAny(patterns: readonly string[], name: string): boolean {
  return patterns.some((pattern) => matchesPattern(pattern, name));
}
