import type { StopEvidence, StopReason } from '../core/loop-outcome.js';
import type { PendingCall, RunState } from '../core/run-state.js';

/** What a step decided: go round again, the answer, a stop with its evidence, or a pause before some calls run. */
export type StepDecision =
  | { readonly type: 'continue' }
  | { readonly type: 'completed'; readonly text: string }
  | { readonly type: 'stopped'; readonly reason: StopReason; readonly evidence: StopEvidence }
  | { readonly type: 'interrupted'; readonly pending: readonly PendingCall[] };

/** The state after a step, and what the step decided. */
export interface StepResult {
  readonly state: RunState;
  readonly decision: StepDecision;
}
