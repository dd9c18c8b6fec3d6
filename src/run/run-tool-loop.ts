import type { ToolRuntime } from '../chain/runtime.js';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { LoopStoppedError } from '../core/errors/loop-stopped-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import { createRunState, type RunState } from '../core/run-state.js';
import { driveRun } from './drive-run.js';
import { explainStop } from './explain-stop.js';
import { loopRuntime } from './loop-input.js';
import type { ToolLoopOptions } from './loop-options.js';
import { createRunContext } from './run-context.js';

/**
 * The tool loop as a plain `await`: events go to `onEvent` (one sink: the run's and the tools'), the
 * outcome is returned (or, under `throwOnStop: true`, a stop throws `LoopStoppedError`). A callback of the
 * caller that fails rejects with `CallbackError`, which carries the outcome so far.
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<LoopOutcome> {
  const { state, runtime } = startRun(options, 'runToolLoop');
  const run = createRunContext(options, runtime, state, { listener: options.onEvent });
  return throwOnStop(options, await driveRun(state, run, false));
}

/** A new run's first state and its runtime, once its options are checked (see `loopRuntime`). */
export function startRun(
  options: ToolLoopOptions,
  form: 'runToolLoop' | 'streamToolLoop',
): { readonly state: RunState; readonly runtime: ToolRuntime } {
  const runtime = loopRuntime(options, form, options);
  if (!Array.isArray(options.messages)) {
    throw new InvalidOptionsError({ option: 'messages', message: 'must be an array of messages' });
  }
  const state = createRunState({
    messages: options.messages,
    sessionId: options.sessionId,
    turnId: options.turnId,
  });
  return { state, runtime };
}

export function throwOnStop(options: { readonly throwOnStop?: boolean }, outcome: LoopOutcome): LoopOutcome {
  if (outcome.type === 'stopped' && options.throwOnStop === true)
    throw new LoopStoppedError({ outcome, message: explainStop(outcome) });
  return outcome;
}
