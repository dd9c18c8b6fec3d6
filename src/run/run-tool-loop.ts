import { LoopStoppedError } from '../errors/loop-stopped-error.js';
import type { LoopEvent } from './loop-event.js';
import type { ToolLoopOptions } from './loop-options.js';
import type { LoopOutcome } from './loop-outcome.js';
import { runLoopEngine } from './tool-loop-engine.js';

/**
 * The tool loop as a plain `await`: the same events `streamToolLoop` yields go to `onLoopEvent`, without
 * the cost of an async iterator; the outcome is returned (or, under `throwOnStop: true`, a stop throws).
 */
export async function runToolLoop(
  options: ToolLoopOptions & { readonly onLoopEvent?: (event: LoopEvent) => void },
): Promise<LoopOutcome> {
  const listener = options.onLoopEvent;
  // Without a listener the engine builds no events at all.
  const outcome = await runLoopEngine(
    options,
    listener === undefined
      ? undefined
      : (event) => {
          try {
            listener(event);
          } catch {
            // A broken listener must not change the outcome or lose the history.
          }
        },
  );
  if (outcome.type === 'stopped' && options.throwOnStop === true) throw new LoopStoppedError({ outcome });
  return outcome;
}
