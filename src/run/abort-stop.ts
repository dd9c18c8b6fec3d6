import { elapsedOf, type LoopContext } from './loop-context.js';
import type { StepDecision } from './step-decision.js';

/** The stop for an aborted run: the time budget ran out, or the caller (or the stream's consumer) aborted. */
export function abortStop(run: LoopContext): Extract<StepDecision, { type: 'stopped' }> {
  const cause = run.budget.cause();
  if (cause === 'time') {
    return {
      type: 'stopped',
      reason: 'BUDGET_EXHAUSTED',
      evidence: {
        kind: 'ceiling',
        limit: 'time',
        max: run.config.stops.timeBudgetMs,
        used: Math.round(elapsedOf(run)),
      },
    };
  }
  return { type: 'stopped', reason: 'ABORTED', evidence: { kind: 'error', error: run.budget.signal.reason } };
}
