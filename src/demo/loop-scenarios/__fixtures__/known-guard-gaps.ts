/**
 * Scenarios the guard does not yet end as they state, by name, with the problem the run reports (a
 * prefix of it). Reported on issue 9; the scenario's expectation stays as it is and the table prints NO.
 * The tests hold this list to the truth both ways: a scenario listed here that ends as expected fails
 * them (remove it from the list), and so does one that fails without being listed.
 */
export const KNOWN_GUARD_GAPS: Readonly<Record<string, readonly string[]>> = {
  // `wait` (no hint) between polls of a polled tool: its constant {"waited":30} is an exact repeat.
  'poll, wait, poll': ['expected completed, got stopped (loop-detected) at round 6 by exact-repeat'],
  // The guard stops at the 5th answer of the poll (4 unchanged ones), not after 5 unchanged answers.
  'polled job that never finishes': ['stopped at round 5, before the loop was evident (round 7)'],
};
