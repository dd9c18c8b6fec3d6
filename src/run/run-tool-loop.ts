import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { LoopStoppedError } from '../errors/loop-stopped-error.js';
import { driveRun } from './drive-run.js';
import type { ToolLoopOptions } from './loop-options.js';
import type { LoopOutcome } from './loop-outcome.js';
import { createRunContext } from './run-context.js';
import { createRunState, type RunState } from './run-state.js';

/**
 * The tool loop as a plain `await`: events go to `onEvent` (one sink: the run's and the tools'), the
 * outcome is returned (or, under `throwOnStop: true`, a stop throws `LoopStoppedError`). A callback of the
 * caller that fails rejects with `CallbackError`, which carries the outcome so far.
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<LoopOutcome> {
  const state = initialState(options);
  const run = createRunContext(options, state, { listener: options.onEvent });
  return throwOnStop(options, await driveRun(state, run, false));
}

export function initialState(options: ToolLoopOptions): RunState {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError({ option: 'options', message: 'the tool loop expects an options object' });
  }
  if (!Array.isArray(options.messages)) {
    throw new InvalidOptionsError({ option: 'messages', message: 'must be an array of messages' });
  }
  return createRunState({ messages: options.messages, sessionId: options.sessionId, turnId: options.turnId });
}

export function throwOnStop(options: { readonly throwOnStop?: boolean }, outcome: LoopOutcome): LoopOutcome {
  if (outcome.type === 'stopped' && options.throwOnStop === true) throw new LoopStoppedError({ outcome });
  return outcome;
}
