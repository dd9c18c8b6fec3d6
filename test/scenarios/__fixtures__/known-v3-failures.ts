/**
 * The v3 scenarios (issue 24) that the current guard does not end as they state, by name, each with why
 * (what `src/guard/detect-loops.ts` and the limits do with it today). `v3-scenarios.test.ts` holds this
 * list to the truth both ways: a scenario listed here that now ends as expected fails it (remove the
 * entry), and so does a v3 scenario that fails without being listed. Empty when guard v3 is done.
 */
export const KNOWN_V3_FAILURES: Readonly<Record<string, string>> = {};
