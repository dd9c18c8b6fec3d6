import type { AssistantMessage } from '../messages/message.js';
import type { TokenUsage } from '../model/model.js';
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
): Promise<StopText> {
  const final = await lastAnswer(stop, options, signal);
  const handed = options.handoff === undefined ? undefined : await options.handoff(stop);
  const text = final.message?.content ?? (typeof handed === 'string' ? handed : config.fallback(stop));
  return {
    text,
    ...(final.message === undefined ? {} : { finalMessage: final.message }),
    ...(final.usage === undefined ? {} : { usage: final.usage }),
    askedModel: final.asked,
  };
}

export interface StopText {
  readonly text: string;
  /** The last answer, to append to the history. */
  readonly finalMessage?: AssistantMessage;
  /** Tokens the last model call used. */
  readonly usage?: TokenUsage;
  /** Whether the model was called once more (a round trip, counted). */
  readonly askedModel: boolean;
}

async function lastAnswer(
  stop: StopInfo,
  options: ToolLoopOptions,
  signal: AbortSignal,
): Promise<{ asked: boolean; message?: AssistantMessage; usage?: TokenUsage }> {
  const canAsk = options.finalAnswer === true && stop.reason !== 'aborted' && stop.reason !== 'model-error';
  if (!canAsk || signal.aborted) return { asked: false };
  try {
    const response = await raceAbort(
      Promise.resolve().then(() => options.model.generate({ messages: stop.messages, tools: [], signal })),
      signal,
    );
    const normalized = normalizeResponse(response, 0);
    const content = normalized.ok ? normalized.message.content : '';
    return content.trim() === ''
      ? { asked: true, usage: normalized.usage }
      : { asked: true, usage: normalized.usage, message: { role: 'assistant', content } };
  } catch {
    // The last answer is a courtesy: when it fails, the handoff or the fallback still answers.
    return { asked: true };
  }
}

/** Model calls spent inside a detected loop, beyond what it took to see the pattern once. */
export function wastedRoundTrips(evidence: StopEvidence): number {
  if (evidence.kind !== 'loop') return 0;
  const distinctRounds = evidence.rounds.length;
  if (evidence.detector === 'cycle') return Math.max(0, distinctRounds - (evidence.period ?? 0));
  if (evidence.detector === 'no-progress') return distinctRounds;
  return Math.max(0, distinctRounds - 1);
}
