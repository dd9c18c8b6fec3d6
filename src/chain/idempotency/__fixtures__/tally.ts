import type { ToolCallOutcome } from '../../runtime.js';

/** How many calls were answered by a replay, and the codes of those that failed. */
export function tally(outcomes: readonly ToolCallOutcome[]): {
  readonly replayed: number;
  readonly codes: Record<string, number>;
} {
  let replayed = 0;
  const codes: Record<string, number> = {};
  for (const outcome of outcomes) {
    if (outcome.type !== 'answered') continue;
    if (outcome.result.replayOf !== undefined) replayed++;
    if (outcome.isError) codes[outcome.code ?? '?'] = (codes[outcome.code ?? '?'] ?? 0) + 1;
  }
  return { replayed, codes };
}
