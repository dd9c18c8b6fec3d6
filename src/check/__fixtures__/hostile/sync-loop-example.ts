import { defineTool } from '../../../tools/define-tool.js';
import { getOrderStatus } from '../correct-tools.js';

// Checked first (exports are checked in name order): its result is reported even though the next one hangs.
export { getOrderStatus };

/** Its execute loops synchronously: its signal is aborted by a timer that can never fire. */
export const spinsForever = defineTool({
  name: 'spinsForever',
  description: 'Never returns.',
  effect: 'read',
  input: { type: 'object', additionalProperties: false },
  output: { type: 'object' },
  execute: () => {
    let spins = 0;
    while (spins >= 0) spins = (spins + 1) % 1_000;
    return {};
  },
  examples: [{ name: 'spins', input: {} }],
});
