import type { LoopOutcome } from '../../../core/loop-outcome.js';
import type { RunEvent } from '../../../core/run-event.js';

/** Reads a `streamToolLoop` to its end: every event, then the outcome. */
export async function drainRun(stream: AsyncGenerator<RunEvent, LoopOutcome, void>) {
  const events: RunEvent[] = [];
  for (;;) {
    const next = await stream.next();
    if (next.done === true) return { events, outcome: next.value };
    events.push(next.value);
  }
}

/** The text deltas, as `[round, delta]`. */
export const textDeltas = (events: readonly RunEvent[]) =>
  events.flatMap((e) => (e.type === 'model-text-delta' ? [[e.round, e.delta] as const] : []));

/** The tool-input deltas, as `[round, index, toolCallId, toolName, delta]`. */
export const toolInputDeltas = (events: readonly RunEvent[]) =>
  events.flatMap((e) =>
    e.type === 'model-tool-input-delta'
      ? [[e.round, e.index, e.toolCallId, e.toolName, e.delta] as const]
      : [],
  );
