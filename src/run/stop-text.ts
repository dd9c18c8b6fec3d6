import type { StopEvidence } from '../core/loop-outcome.js';
import type { AssistantMessage } from '../core/message.js';
import type { TokenUsage } from '../core/model.js';
import { boundedCall } from './bounded-call.js';
import { callModel } from './call-model.js';
import { defaultStopText } from './default-stop-text.js';
import type { LoopContext } from './loop-context.js';
import type { StopInfo } from './stop-info.js';

export interface StopText {
  readonly text: string;
  /** The last answer, to append to the history. */
  readonly finalMessage?: AssistantMessage;
  /** Tokens the last model call used. */
  readonly usage?: TokenUsage;
  /** Whether the model was called once more (a round trip, counted). */
  readonly askedModel: boolean;
  /** A callback (handoff, fallback, wrapModelCall) that failed: the run then rejects with `CallbackError`. */
  readonly failure?: { readonly callback: string; readonly error: unknown };
}

/**
 * The text a stopped request ends with: a last answer from the model with tools disabled (when asked
 * for and possible), else the handoff's text, else the fallback. A callback that throws, hangs past the
 * callback timeout or returns the wrong type is reported in `failure`; the text is then the default.
 */
export async function stopText(
  stop: StopInfo,
  run: LoopContext,
  next: { readonly round: number; readonly newId: () => string },
): Promise<StopText> {
  let failure: StopText['failure'];
  const final = await lastAnswer(stop, run, next);
  if (final.failure !== undefined) failure = final.failure;
  let handed: unknown;
  const { handoff } = run.options;
  if (handoff !== undefined) {
    try {
      handed = await boundedCall(() => handoff(stop), { timeoutMs: run.config.callbackTimeoutMs });
      if (handed !== undefined && typeof handed !== 'string') {
        throw new TypeError(`handoff returned ${typeof handed}, not a string or undefined`);
      }
    } catch (error) {
      failure ??= { callback: 'handoff', error };
      handed = undefined;
    }
  }
  let text = final.message?.content ?? (typeof handed === 'string' ? handed : undefined);
  if (text === undefined) {
    try {
      const fallback = run.config.fallback(stop);
      if (typeof fallback !== 'string')
        throw new TypeError(`fallback returned ${typeof fallback}, not a string`);
      text = fallback;
    } catch (error) {
      failure ??= { callback: 'fallback', error };
      text = defaultStopText(stop);
    }
  }
  return {
    text,
    ...(final.message === undefined ? {} : { finalMessage: final.message }),
    ...(final.usage === undefined ? {} : { usage: final.usage }),
    askedModel: final.asked,
    ...(failure === undefined ? {} : { failure }),
  };
}

async function lastAnswer(
  stop: StopInfo,
  run: LoopContext,
  next: { readonly round: number; readonly newId: () => string },
): Promise<{
  asked: boolean;
  message?: AssistantMessage;
  usage?: TokenUsage;
  failure?: { callback: string; error: unknown };
}> {
  const reason = stop.reason;
  const canAsk =
    run.options.finalAnswer === true &&
    reason !== 'ABORTED' &&
    reason !== 'MODEL_ERROR' &&
    reason !== 'CALLBACK_FAILED';
  if (!canAsk || run.budget.signal.aborted) return { asked: false };
  const answer = await callModel(
    run,
    { messages: stop.messages, round: next.round, tools: false },
    next.newId,
  );
  switch (answer.type) {
    case 'CALLBACK_FAILED':
      return { asked: true, failure: { callback: 'wrapModelCall', error: answer.error } };
    case 'failed':
      // The last answer is a courtesy: when it fails, the handoff or the fallback still answers.
      return { asked: true, usage: answer.usage };
    case 'answer': {
      const content = answer.message.content;
      return content.trim() === ''
        ? { asked: true, usage: answer.usage }
        : { asked: true, usage: answer.usage, message: { role: 'assistant', content } };
    }
    default: {
      const unreachable: never = answer;
      throw new TypeError(`unknown model answer ${String(unreachable)}`);
    }
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
