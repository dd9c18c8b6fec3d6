import type { LoopStep } from '../../run/loop-outcome.js';

/**
 * Wasted round trips of a run without the semantic guard, defined as follows. A round *repeats* when it
 * called tools and every (tool name, result text) pair it got was already seen in an earlier round of
 * the request. The loop's first repeat is the first such round; it and every round trip after it are
 * wasted: from there on the model learned nothing it did not already know. This is the same count the
 * guard reports (`wastedRoundTrips`: the rounds of the detected pattern beyond its first occurrence), so
 * guarded and unguarded runs compare like with like. 0 when no round repeats.
 *
 * Only meaningful for loop scenarios: a transient failure retried by the model repeats its error text,
 * and is not waste, so callers count 0 for legitimate tasks.
 */
export function roundsAfterFirstRepeat(steps: readonly LoopStep[], roundTrips: number): number {
  const seen = new Set<string>();
  for (const step of steps) {
    const pairs = step.toolResults.map((result) => `${result.toolName}\u0000${result.content}`);
    if (pairs.length > 0 && pairs.every((pair) => seen.has(pair))) return roundTrips - step.round + 1;
    for (const pair of pairs) seen.add(pair);
  }
  return 0;
}
