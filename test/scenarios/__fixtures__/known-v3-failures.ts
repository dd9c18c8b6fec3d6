/**
 * The v3 scenarios (issue 24) that the current guard does not end as they state, by name, each with why
 * (what `src/guard/detect-loops.ts` and the limits do with it today). `v3-scenarios.test.ts` holds this
 * list to the truth both ways: a scenario listed here that now ends as expected fails it (remove the
 * entry), and so does a v3 scenario that fails without being listed. Empty when guard v3 is done.
 */
export const KNOWN_V3_FAILURES: Readonly<Record<string, string>> = {
  // 2. Identical results for distinct entities (the loops of the class).
  'one dead page under four spellings':
    'same-result needs the calls near each other (one gist: the same arguments but for wording or a generated value, or a handle an answer gave); four spellings of one URL are four distinct arguments to the guard, so only the cycle stops it, at round 8',
  'page numbers the service ignores':
    'page 2, 3, 4 answered with page 1: distinct numbers are distinct entities to the guard (a numeric id is no wording), and the answer offers no page handle the call passes on; the per-tool limit stops it at 41',
};
