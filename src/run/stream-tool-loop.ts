import { LoopStoppedError } from '../errors/loop-stopped-error.js';
import { createAsyncQueue } from './async-queue.js';
import type { LoopEvent } from './loop-event.js';
import type { ToolLoopOptions } from './loop-options.js';
import type { LoopOutcome } from './loop-outcome.js';
import { runLoopEngine } from './tool-loop-engine.js';

/**
 * The tool loop as an async stream of events (`step-start`, `tool-call-start`, `tool-call-end`,
 * `step-end`, `guard-warning`, `loop-end`), as they happen. The generator's return value is the outcome;
 * under `throwOnStop: true` a stop throws `LoopStoppedError` after `loop-end`.
 */
export async function* streamToolLoop(
  options: ToolLoopOptions,
): AsyncGenerator<LoopEvent, LoopOutcome, void> {
  const queue = createAsyncQueue<LoopEvent>();
  let done = false;
  let outcome: LoopOutcome | undefined;
  let failure: { error: unknown } | undefined;
  runLoopEngine(options, (event) => queue.push(event)).then(
    (value) => {
      outcome = value;
      done = true;
      queue.wake();
    },
    (error: unknown) => {
      failure = { error };
      done = true;
      queue.wake();
    },
  );
  while (!done) {
    await queue.wait();
    yield* queue.drain();
  }
  yield* queue.drain();
  if (failure !== undefined) throw failure.error;
  const result = outcome as LoopOutcome;
  if (result.type === 'stopped' && options.throwOnStop === true)
    throw new LoopStoppedError({ outcome: result });
  return result;
}
