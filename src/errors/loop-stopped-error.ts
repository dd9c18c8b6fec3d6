import type { LoopOutcome } from '../run/loop-outcome.js';
import { ToolwardenError } from './toolwarden-error.js';

export interface LoopStoppedErrorOptions {
  outcome: Extract<LoopOutcome, { type: 'stopped' }>;
}

/** Thrown by the loop only under `throwOnStop: true`; the outcome it carries is what would have been returned. */
export class LoopStoppedError extends ToolwardenError {
  readonly code = 'LOOP_STOPPED';
  override readonly name = 'LoopStoppedError';
  readonly outcome: Extract<LoopOutcome, { type: 'stopped' }>;

  constructor({ outcome }: LoopStoppedErrorOptions) {
    super({ message: `The tool loop stopped: ${outcome.reason}`, cause: outcome.evidence });
    this.outcome = outcome;
  }
}
