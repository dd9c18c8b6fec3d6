import type { AssistantMessage } from '../messages/message.js';
import { raceAbort } from './budget-signal.js';
import type { ResolvedLoopOptions, StopInfo, ToolLoopOptions } from './loop-options.js';
import type { StopEvidence } from './loop-outcome.js';
import { normalizeResponse } from './normalize-response.js';

/**
 * The text a stopped request ends with: a last answer from the model with tools disabled (when asked
 * for and possible), else the handoff's text, else the fallback.
 */
export async function stopText(
  stop: StopInfo,
  options: ToolLoopOptions,
  config: ResolvedLoopOptions,
  signal: AbortSignal,
): Promise<{ text: string; finalMessage?: AssistantMessage }> {
  const canAsk = options.finalAnswer === true && stop.reason !== 'aborted' && stop.reason !== 'model-error';
  if (canAsk && !signal.aborted) {
    try {
      const response = await raceAbort(
        Promise.resolve().then(() => options.model.generate({ messages: stop.messages, tools: [], signal })),
        signal,
      );
      const normalized = normalizeResponse(response, 0);
      if (normalized.ok && normalized.message.content.trim() !== '') {
        return {
          text: normalized.message.content,
          finalMessage: { role: 'assistant', content: normalized.message.content },
        };
      }
    } catch {
      // The last answer is a courtesy: when it fails, the fallback below still answers.
    }
  }
  if (options.handoff !== undefined) {
    const handed = await options.handoff(stop);
    if (typeof handed === 'string') return { text: handed };
  }
  return { text: config.fallback(stop) };
}

/** Model calls spent inside a detected loop, beyond what it took to see the pattern once. */
export function wastedRoundTrips(evidence: StopEvidence): number {
  if (evidence.kind !== 'loop') return 0;
  const distinctRounds = evidence.rounds.length;
  if (evidence.detector === 'cycle') return Math.max(0, distinctRounds - (evidence.period ?? 0));
  if (evidence.detector === 'no-progress') return distinctRounds;
  return Math.max(0, distinctRounds - 1);
}
