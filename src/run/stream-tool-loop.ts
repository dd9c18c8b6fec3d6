import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { RunEvent } from '../core/run-event.js';
import { createAsyncQueue } from './async-queue.js';
import { driveRun } from './drive-run.js';
import { createLoopContext } from './loop-context.js';
import type { RunOptions } from './loop-options.js';
import { openRun } from './open-run.js';
import { throwOnStop } from './run-tool-loop.js';

/**
 * The tool loop as an async stream of its events, as they happen; the generator's return value is the
 * outcome. It starts as `runToolLoop` does: over `messages`, or `from` a paused run with its `decisions`. The stream owns the run: the loop does not start a model call or a tool run before the
 * consumer has read every event so far, and breaking out of the stream (or calling `return()`) aborts
 * the run, waits for it to wind down (the guard is saved), and starts nothing more.
 */
export async function* streamToolLoop(
  options: RunOptions & { readonly onEvent?: undefined },
): AsyncGenerator<RunEvent, LoopOutcome, void> {
  if (typeof options === 'object' && options !== null && (options as RunOptions).onEvent !== undefined) {
    throw new InvalidOptionsError({
      option: 'onEvent',
      message: 'streamToolLoop yields the events; read them from the stream (use runToolLoop for a listener)',
    });
  }
  const queue = createAsyncQueue<RunEvent>();
  let emitted = 0;
  let delivered = 0;
  let waiters: Array<() => void> = [];
  const release = () => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const checkpoint = () =>
    delivered === emitted ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));

  const opened = await openRun(options as RunOptions, 'streamToolLoop');
  const run = createLoopContext(options as RunOptions, opened.runtime, opened.state, {
    listener: (event) => {
      emitted++;
      queue.push(event);
    },
    checkpoint,
    decisions: opened.decisions,
    config: opened.config,
  });
  let settled: { readonly outcome: LoopOutcome } | { readonly error: unknown } | undefined;
  const running = driveRun(opened.state, run, opened.resumed, opened.claimed).then(
    (outcome) => {
      settled = { outcome };
    },
    (error: unknown) => {
      settled = { error };
    },
  );
  void running.finally(() => queue.wake());
  try {
    for (;;) {
      for (const event of queue.drain()) {
        yield event;
        delivered++;
      }
      if (delivered === emitted) release();
      if (settled !== undefined && delivered === emitted) break;
      await queue.wait();
    }
  } finally {
    if (settled === undefined) {
      run.budget.cancel(new DOMException('the consumer stopped reading the stream', 'AbortError'));
      release();
      await running;
    }
  }
  const result = settled as { readonly outcome: LoopOutcome } | { readonly error: unknown };
  if ('error' in result) throw result.error;
  return throwOnStop(options, result.outcome);
}
