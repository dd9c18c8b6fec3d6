import { LoopStoppedError } from '../core/errors/loop-stopped-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import { driveRun } from './drive-run.js';
import { explainStop } from './explain-stop.js';
import { createLoopContext } from './loop-context.js';
import type { RunOptions } from './loop-options.js';
import { openRun } from './open-run.js';

/**
 * The tool loop as a plain `await`: a new run over `messages`, or one that goes on `from` a paused run (its
 * state, or `{ runId }` in the runtime's store) with `decisions` for its waiting calls (see `openRun`).
 * Events go to `onEvent` (one sink: the run's and the tools'), the outcome is returned (or, under
 * `throwOnStop: true`, a stop throws `LoopStoppedError`). A callback of the caller that fails rejects with
 * `CallbackError`, which carries the outcome so far.
 */
export async function runToolLoop(options: RunOptions): Promise<LoopOutcome> {
  const opened = await openRun(options, 'runToolLoop');
  const run = createLoopContext(options, opened.runtime, opened.state, {
    listener: options.onEvent,
    decisions: opened.decisions,
    config: opened.config,
  });
  return throwOnStop(options, await driveRun(opened.state, run, opened.resumed, opened.claimed));
}

/** The outcome, or `LoopStoppedError` for a stop under `throwOnStop: true`. */
export function throwOnStop(options: { readonly throwOnStop?: boolean }, outcome: LoopOutcome): LoopOutcome {
  if (outcome.type === 'stopped' && options.throwOnStop === true)
    throw new LoopStoppedError({ outcome, message: explainStop(outcome) });
  return outcome;
}
