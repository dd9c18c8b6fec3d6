import type { LoopEvent } from './loop-event.js';
import type { ToolLoopOptions } from './loop-options.js';
import type { LoopOutcome } from './loop-outcome.js';
import { streamToolLoop } from './stream-tool-loop.js';

/** The loop as a plain `await`: collects `streamToolLoop` and returns its outcome. */
export async function runToolLoop(
  options: ToolLoopOptions & { onLoopEvent?: (event: LoopEvent) => void },
): Promise<LoopOutcome> {
  const stream = streamToolLoop(options);
  for (;;) {
    const next = await stream.next();
    if (next.done === true) return next.value;
    options.onLoopEvent?.(next.value);
  }
}
