/**
 * Scenarios the guard does not yet end as they state, by name, with the problem the run reports (a
 * prefix of it). Reported on issue 9; the scenario's expectation stays as it is and the table prints NO.
 * The tests hold this list to the truth both ways: a scenario listed here that ends as expected fails
 * them (remove it from the list), and so does one that fails without being listed.
 */
export const KNOWN_GUARD_GAPS: Readonly<Record<string, readonly string[]>> = {};
