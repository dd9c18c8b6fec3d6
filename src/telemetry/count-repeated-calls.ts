import type { LoopStep } from '../core/loop-outcome.js';
import { callDigest } from '../guard/fingerprint.js';

/**
 * How many of the calls answered in `steps` repeat an earlier call of the same steps: the same tool with
 * the same arguments in canonical form (the guard's `callDigest`: keys in any order, any whitespace between
 * JSON tokens, `1.0` as `1`), asked in an earlier response or earlier in the same one. Repeats over calls
 * is the repeated-fingerprint hit rate: when it rises, the tool's description or its answer is what to fix.
 *
 * A call counts only in the step that answered it, so a round that paused for an approval and was resumed
 * counts each call once across both parts; a call of the part before a pause is not seen by the part after
 * it. Pure: nothing but the raw argument text is read.
 */
export function countRepeatedCalls(steps: readonly Pick<LoopStep, 'response' | 'toolResults'>[]): number {
  const seen = new Set<number>();
  let repeats = 0;
  for (const { response, toolResults } of steps) {
    const calls = response.toolCalls ?? [];
    // A step usually answers all of its calls; only a paused or resumed round answers some of them.
    const answered =
      toolResults.length === calls.length
        ? undefined
        : new Set(toolResults.map((result) => result.toolCallId));
    for (const call of calls) {
      const digest = callDigest(call.name, call.arguments);
      if (seen.has(digest)) {
        if (answered === undefined || answered.has(call.id)) repeats++;
      } else seen.add(digest);
    }
  }
  return repeats;
}
